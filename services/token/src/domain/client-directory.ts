import { Code, ConnectError, createClient, type Client, type Transport } from "@connectrpc/connect";
import { ClientService, type Client as ClientMessage } from "../../../../gen/iam/directory/v1/client_pb.js";
import type { Clock } from "../../../kit/src/store/port.js";

/** What the token service needs to know of a client (spec 2.3), without its secret. */
export interface ClientInfo {
  id: string;
  clientId: string;
  name: string;
  clientType: "CONFIDENTIAL" | "PUBLIC";
  enabled: boolean;
  redirectUris: string[];
  webOrigins: string[];
  grantTypes: string[];
  requireConsent: boolean;
  backchannelLogoutUri: string;
  backchannelLogoutSessionRequired: boolean;
}

/** A cached entry lives at most this long even without an invalidation event. */
const MAX_AGE_MS = 30_000;
/** "No such client" is trusted only briefly: a client created meanwhile publishes no event. */
const NEGATIVE_MAX_AGE_MS = 1_000;

/** A one-way verifier of a client's secret (see ClientService.GetClientCredentialVerifier). */
export interface SecretVerifier {
  salt: Buffer;
  digest: Buffer;
}

/** What the cache holds per client: its configuration and the verifier of its secret. */
export interface ClientCredentials {
  info: ClientInfo;
  /** Undefined for PUBLIC clients and clients without a secret. */
  verifier: SecretVerifier | undefined;
}

interface Entry {
  value: ClientCredentials | null;
  /** False when filled by `get` (GetClient): `credentials` then still reads the verifier. */
  withVerifier: boolean;
  at: number;
}

/**
 * Client configuration cached in the token service (issue 4, performance design): read from the
 * directory's ClientService once, with the verifier of the client's secret, so the token endpoint
 * authenticates clients without any RPC when warm. Dropped on `iam.directory.v1.client.updated`
 * (update, delete and secret regeneration publish it; call invalidate) and after MAX_AGE_MS as a
 * safety net for a missed event: a regenerated secret stops working here within the event's
 * delivery time, at worst MAX_AGE_MS.
 */
export class ClientDirectory {
  private readonly client: Client<typeof ClientService>;
  private readonly cache = new Map<string, Entry>();
  /** Bumped by invalidate: a read that started before an invalidation must not fill the cache. */
  private generation = 0;

  constructor(transport: Transport, private readonly clock: Clock) {
    this.client = createClient(ClientService, transport);
  }

  /** The client, or null when the realm has no such client. */
  async get(realm: string, clientId: string): Promise<ClientInfo | null> {
    const hit = this.fresh(realm, clientId);
    if (hit) return hit.value?.info ?? null;
    return this.fill(realm, clientId, false, async () => {
      const res = await this.client.getClient({ realm, clientId });
      return res.client ? { info: toInfo(res.client), verifier: undefined } : null;
    }).then((v) => v?.info ?? null);
  }

  /** The client and its secret's verifier, or null when the realm has no such client. */
  async credentials(realm: string, clientId: string): Promise<ClientCredentials | null> {
    const hit = this.fresh(realm, clientId);
    if (hit && (hit.withVerifier || hit.value === null)) return hit.value;
    return this.fill(realm, clientId, true, async () => {
      const res = await this.client.getClientCredentialVerifier({ realm, clientId });
      if (!res.client) return null;
      const verifier = res.verifier.length > 0 ? { salt: Buffer.from(res.verifierSalt), digest: Buffer.from(res.verifier) } : undefined;
      return { info: toInfo(res.client), verifier };
    });
  }

  private fresh(realm: string, clientId: string): Entry | undefined {
    const hit = this.cache.get(`${realm}\0${clientId}`);
    return hit && this.clock.now() - hit.at < (hit.value ? MAX_AGE_MS : NEGATIVE_MAX_AGE_MS) ? hit : undefined;
  }

  private async fill(realm: string, clientId: string, withVerifier: boolean, read: () => Promise<ClientCredentials | null>): Promise<ClientCredentials | null> {
    const generation = this.generation;
    let value: ClientCredentials | null;
    try {
      value = await read();
    } catch (e) {
      if (e instanceof ConnectError && (e.code === Code.NotFound || e.code === Code.InvalidArgument)) value = null;
      else throw e;
    }
    if (generation === this.generation) this.cache.set(`${realm}\0${clientId}`, { value, withVerifier, at: this.clock.now() });
    return value;
  }

  invalidate(realm: string, clientId?: string): void {
    this.generation++;
    if (clientId !== undefined) {
      this.cache.delete(`${realm}\0${clientId}`);
      return;
    }
    for (const key of this.cache.keys()) {
      if (key.slice(0, key.indexOf("\0")) === realm) this.cache.delete(key);
    }
  }
}

function toInfo(c: ClientMessage): ClientInfo {
  return {
    id: c.id,
    clientId: c.clientId,
    name: c.name,
    clientType: c.clientType === "PUBLIC" ? "PUBLIC" : "CONFIDENTIAL",
    enabled: c.enabled,
    redirectUris: [...c.redirectUris],
    webOrigins: [...c.webOrigins],
    grantTypes: [...c.grantTypes],
    requireConsent: c.requireConsent,
    backchannelLogoutUri: c.backchannelLogoutUri,
    backchannelLogoutSessionRequired: c.backchannelLogoutSessionRequired,
  };
}
