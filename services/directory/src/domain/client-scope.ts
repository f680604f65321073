import type { Doc } from "../../../kit/src/store/port.js";

/** A client scope (spec 2.8); `name` unique per realm. */
export interface ClientScopeRecord extends Doc {
  realmId: string;
  name: string;
  description: string;
  protocol: string;
  createdAt: number;
}

/** A protocol mapper of one scope (spec 2.8). `config` holds Keycloak's string-valued keys. */
export interface ProtocolMapperRecord extends Doc {
  realmId: string;
  scopeId: string;
  name: string;
  mapperType: string;
  protocol: string;
  config: Record<string, string>;
  createdAt: number;
}

export type ScopeKind = "default" | "optional";

/** A client's default or optional scope (spec 4.9); one assignment per client and scope. */
export interface ScopeAssignmentRecord extends Doc {
  realmId: string;
  clientId: string;
  scopeId: string;
  kind: ScopeKind;
}

export const OIDC = "openid-connect";

export function mapperView(m: ProtocolMapperRecord) {
  return { id: m._id, name: m.name, mapperType: m.mapperType, protocol: m.protocol, config: m.config };
}

export function scopeView(s: ClientScopeRecord, mappers: ProtocolMapperRecord[]) {
  return {
    id: s._id, name: s.name, description: s.description, protocol: s.protocol,
    protocolMappers: mappers.filter((m) => m.scopeId === s._id).map(mapperView),
  };
}
