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

/**
 * Client configuration cached in the token service (issue 4, performance design): read from the
 * directory's ClientService once, dropped on `iam.directory.v1.client.updated` (call invalidate)
 * and after MAX_AGE_MS as a safety net for a missed event.
 */
export class ClientDirectory {
  private readonly client: Client<typeof ClientService>;
  private readonly cache = new Map<string, { info: ClientInfo | null; at: number }>();

  constructor(transport: Transport, private readonly clock: Clock) {
    this.client = createClient(ClientService, transport);
  }

  /** The client, or null when the realm has no such client. */
  async get(realm: string, clientId: string): Promise<ClientInfo | null> {
    const key = `${realm}\0${clientId}`;
    const hit = this.cache.get(key);
    if (hit && this.clock.now() - hit.at < MAX_AGE_MS) return hit.info;
    let info: ClientInfo | null;
    try {
      const res = await this.client.getClient({ realm, clientId });
      info = res.client ? toInfo(res.client) : null;
    } catch (e) {
      if (e instanceof ConnectError && (e.code === Code.NotFound || e.code === Code.InvalidArgument)) info = null;
      else throw e;
    }
    this.cache.set(key, { info, at: this.clock.now() });
    return info;
  }

  invalidate(realm: string, clientId?: string): void {
    for (const key of this.cache.keys()) {
      const [r, c] = key.split("\0");
      if (r === realm && (clientId === undefined || c === clientId)) this.cache.delete(key);
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
