import { randomUUID } from "node:crypto";
import { IamError } from "../../../kit/src/errors.js";
import type { Outbox } from "../../../kit/src/bus/outbox.js";
import type { Clock } from "../../../kit/src/store/port.js";
import { randomToken, sha256Hex } from "../../../kit/src/crypto/random.js";
import { pageOf } from "../../../kit/src/page.js";
import { recordWriteKind } from "../../../kit/src/events/audited-write.js";
import { auditedWrite } from "./audited-write.js";
import { GRANT_TYPES } from "./client.js";
import type { RealmRecord } from "./realm.js";
import type { RealmAccess } from "./realm-access.js";
import type { InitialAccessTokenRecord, InitialAccessTokenRepository } from "../store/initial-access-token-repository.js";
import type { RegistrationPolicyRecord, RegistrationPolicyRepository } from "../store/registration-policy-repository.js";

/** Keycloak's default for "Max Clients Limit"; a realm changes it in its policy. */
export const DEFAULT_MAX_CLIENTS = 200;
/** Every grant a client may have but password (RFC 9700 section 2.4: not to be used). */
export const DEFAULT_ALLOWED_GRANTS = GRANT_TYPES.filter((g) => g !== "password");
const MAX_EXPIRATION = 31_536_000;
const MAX_COUNT = 100_000;
const MAX_HOSTS = 100;

export interface InitialAccessTokenInput {
  expiration?: number | undefined;
  count?: number | undefined;
}

export interface PolicyUpdate {
  anonymousRegistrationAllowed?: boolean | undefined;
  allowedRedirectUriHosts?: string[] | undefined;
  allowedGrantTypes?: string[] | undefined;
  maxClients?: number | undefined;
}

/** What the Admin API shows of an initial access token: never its hash. */
export function initialAccessTokenView(t: InitialAccessTokenRecord): Omit<InitialAccessTokenRecord, "tokenHash" | "realmId"> {
  const { tokenHash: _h, realmId: _r, ...rest } = t;
  return rest;
}

/**
 * The Admin API of dynamic registration (Keycloak's clients-initial-access and registration
 * policies): initial access tokens, shown once and stored hashed, and the realm's policy.
 */
export class RegistrationAdmin {
  constructor(
    private readonly realms: RealmAccess,
    private readonly tokens: InitialAccessTokenRepository,
    private readonly policies: RegistrationPolicyRepository,
    private readonly outbox: Outbox,
    private readonly clock: Clock,
  ) {
    outbox.register(this.tokenKind);
    outbox.register(this.policyKind);
  }

  async createToken(realmName: string, input: InitialAccessTokenInput): Promise<{ record: InitialAccessTokenRecord; token: string }> {
    const realm = await this.realms.byName(realmName);
    const expiration = bounded("expiration", input.expiration ?? 86_400, 0, MAX_EXPIRATION);
    const count = bounded("count", input.count ?? 1, 1, MAX_COUNT);
    const token = randomToken();
    const now = this.clock.now();
    const record: InitialAccessTokenRecord = {
      _id: randomUUID(), realmId: realm._id, tokenHash: sha256Hex(token), expiration, count, remainingCount: count, createdAt: now,
      ...(expiration > 0 ? { expiresAt: now + expiration * 1000 } : {}),
    };
    await auditedWrite(this.outbox, this.tokenKind, realm, { realmId: realm._id, id: record._id, expect: "present" },
      { operationType: "CREATE", resourceType: "CLIENT_INITIAL_ACCESS_MODEL", path: tokenPath(record._id), representation: initialAccessTokenView(record) },
      async () => { await this.tokens.insert(record); return true; });
    return { record, token };
  }

  async listTokens(realmName: string, first: number, max: number): Promise<InitialAccessTokenRecord[]> {
    const page = pageOf(first, max);
    const realm = await this.realms.byName(realmName);
    return this.tokens.list(realm._id, page.first, page.max);
  }

  async deleteToken(realmName: string, id: string): Promise<void> {
    const realm = await this.realms.byName(realmName);
    const deleted = await auditedWrite(this.outbox, this.tokenKind, realm, { realmId: realm._id, id, expect: "absent" },
      { operationType: "DELETE", resourceType: "CLIENT_INITIAL_ACCESS_MODEL", path: tokenPath(id) },
      () => this.tokens.delete(realm._id, id));
    if (!deleted) throw IamError.notFound(`initial access token "${id}"`, "initial_access_token_not_found");
  }

  async policy(realmName: string): Promise<RegistrationPolicyRecord> {
    return this.policyOf(await this.realms.byName(realmName));
  }

  /** The realm's policy, its defaults stored on first use (so the client count has a home). */
  policyOf(realm: RealmRecord): Promise<RegistrationPolicyRecord> {
    return this.policies.ensure({
      _id: realm._id, anonymousRegistrationAllowed: false, allowedRedirectUriHosts: [], allowedGrantTypes: [...DEFAULT_ALLOWED_GRANTS],
      maxClients: DEFAULT_MAX_CLIENTS, registeredClients: 0, updatedAt: this.clock.now(),
    });
  }

  async updatePolicy(realmName: string, input: PolicyUpdate): Promise<RegistrationPolicyRecord> {
    const realm = await this.realms.byName(realmName);
    await this.policyOf(realm);
    const set: Partial<RegistrationPolicyRecord> = { updatedAt: this.clock.now() };
    if (input.anonymousRegistrationAllowed !== undefined) set.anonymousRegistrationAllowed = input.anonymousRegistrationAllowed;
    if (input.maxClients !== undefined) set.maxClients = bounded("maxClients", input.maxClients, 0, MAX_COUNT);
    if (input.allowedRedirectUriHosts !== undefined) set.allowedRedirectUriHosts = checkHosts(input.allowedRedirectUriHosts);
    if (input.allowedGrantTypes !== undefined) {
      input.allowedGrantTypes.forEach((g, i) => {
        if (!(GRANT_TYPES as readonly string[]).includes(g)) throw IamError.invalid(`allowedGrantTypes[${i}]`, `allowedGrantTypes[${i}] must be one of ${GRANT_TYPES.join(", ")}`);
      });
      set.allowedGrantTypes = [...new Set(input.allowedGrantTypes)];
    }
    let updated = null as RegistrationPolicyRecord | null;
    await auditedWrite(this.outbox, this.policyKind, realm, { realmId: realm._id, id: realm._id, expect: "present" },
      { operationType: "UPDATE", resourceType: "CLIENT_REGISTRATION_POLICY", path: "client-registration-policy", representation: set },
      async () => (updated = await this.policies.update(realm._id, set)) !== null);
    if (!updated) throw IamError.notFound(`realm "${realmName}"`, "realm_not_found");
    return updated;
  }

  private readonly tokenKind = recordWriteKind("directory.initial-access-token", (realmId, id) => this.tokens.findById(realmId, id), initialAccessTokenView);
  private readonly policyKind = recordWriteKind("directory.registration-policy", (_realmId, id) => this.policies.get(id), (p) => p);
}

function tokenPath(id: string): string {
  return `clients-initial-access/${id}`;
}

function bounded(field: string, v: number, min: number, max: number): number {
  if (!Number.isInteger(v) || v < min || v > max) throw IamError.invalid(field, `${field} must be an integer from ${min} to ${max}`);
  return v;
}

/** Host names as URL parsing gives them: lowercase, no scheme, port or path. */
function checkHosts(hosts: string[]): string[] {
  if (hosts.length > MAX_HOSTS) throw IamError.invalid("allowedRedirectUriHosts", `allowedRedirectUriHosts must have at most ${MAX_HOSTS} entries`);
  return [...new Set(hosts.map((h, i) => {
    let parsed = "";
    try {
      parsed = new URL(`https://${h}`).hostname;
    } catch { /* refused below */ }
    if (!h || parsed !== h.toLowerCase()) {
      throw IamError.invalid(`allowedRedirectUriHosts[${i}]`, `allowedRedirectUriHosts[${i}] must be a host name or IP address, without scheme, port or path`);
    }
    return parsed;
  }))];
}
