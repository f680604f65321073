import type { Client, Entry } from "ldapts";
import type { ProviderRecord } from "./provider.js";
import { lazyImport } from "../../../kit/src/runtime/lazy-import.js";

// ldapts (a 114 KB module) serves only realms federating an LDAP directory: imported when the
// first connection opens rather than at start (faster cold start).
const ldapts = lazyImport(() => import("ldapts"));
/** The library once a connection loaded it: before that no error can be one of its classes. */
let lib: typeof import("ldapts") | undefined;

/** What failed when talking to a directory server (test-connection's `error`, the login event's reason). */
export type LdapFailureKind =
  | "connection_refused" | "tls_failure" | "invalid_bind_credentials" | "users_dn_not_found" | "timeout" | "ldap_error";

export class LdapFailure extends Error {
  /** The LDAP result code (RFC 4511 4.1.9) when the server answered with one. */
  constructor(readonly kind: LdapFailureKind, message: string, readonly resultCode?: number) {
    super(message);
    this.name = "LdapFailure";
  }
}

/**
 * Names the failure without echoing anything sent (the credential never is: ldapts's errors carry
 * the server's diagnostic or the socket's, not the request).
 */
export function classifyLdapError(e: unknown, stage: "connect" | "bind" | "search", url: string): LdapFailure {
  if (e instanceof LdapFailure) return e;
  const code = (e as { code?: unknown }).code;
  const message = e instanceof Error ? e.message : String(e);
  if (lib && e instanceof lib.InvalidCredentialsError) return new LdapFailure("invalid_bind_credentials", "the server refused the bind DN and credential (invalidCredentials)");
  if (lib && e instanceof lib.NoSuchObjectError) return new LdapFailure("users_dn_not_found", "the users DN does not exist on the server (noSuchObject)");
  if (code === "ECONNREFUSED") return new LdapFailure("connection_refused", `connection to ${url} refused`);
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return new LdapFailure("connection_refused", `host of ${url} not found`);
  if (code === "ETIMEDOUT" || /timeout|timed out/i.test(message)) return new LdapFailure("timeout", `no answer from ${url} in time (${stage})`);
  if (typeof code === "string" && (/CERT|TLS|SSL|EPROTO|SIGNATURE|ISSUER/.test(code))) {
    return new LdapFailure("tls_failure", `TLS handshake with ${url} failed: ${code}`);
  }
  if (/ssl|tls|certificate/i.test(message)) return new LdapFailure("tls_failure", `TLS handshake with ${url} failed`);
  // ldaps:// whose handshake the peer broke off (not a TLS server, or it refused ours).
  if (url.startsWith("ldaps:") && stage !== "search" && (code === "ECONNRESET" || /socket disconnected|secure TLS/i.test(message))) {
    return new LdapFailure("tls_failure", `TLS handshake with ${url} failed: the server closed the connection`);
  }
  if (code === "ECONNRESET" || /Socket error|Connection closed/i.test(message)) {
    return new LdapFailure("connection_refused", `connection to ${url} was closed (${stage})`);
  }
  const resultCode = (e as { code?: unknown }).code;
  const numeric = typeof resultCode === "number" ? resultCode : undefined;
  return new LdapFailure("ldap_error", `${stage} failed${numeric !== undefined ? ` (LDAP result ${numeric})` : ""}: ${message.split("\n")[0]}`, numeric);
}

/** One connection to a provider's server, bound as the provider's bind DN. */
export class LdapSession {
  private constructor(private readonly client: Client, readonly provider: ProviderRecord) {}

  static async open(provider: ProviderRecord, credential: string): Promise<LdapSession> {
    // A provider imported without its credential has none yet. An empty password would be an
    // unauthenticated bind (RFC 4513 section 5.1.2), which many servers accept: never send it.
    if (!credential) throw new LdapFailure("invalid_bind_credentials", "the provider has no bind credential set");
    const client = await newClient(provider);
    try {
      await client.bind(provider.bindDn, credential);
    } catch (e) {
      await client.unbind().catch(() => undefined);
      throw classifyLdapError(e, "bind", provider.connectionUrl);
    }
    return new LdapSession(client, provider);
  }

  /** A search whose failures are classified; `paged` walks the result in RFC 2696 pages. */
  async *search(base: string, filter: string, attributes: string[], options: { scope?: "base" | "sub"; pageSize?: number; sizeLimit?: number } = {}): AsyncGenerator<Entry[]> {
    try {
      const pages = this.client.searchPaginated(base, {
        scope: options.scope ?? "sub", filter, attributes, explicitBufferAttributes: ["objectGUID"],
        ...(options.pageSize ? { paged: { pageSize: options.pageSize } } : {}),
        ...(options.sizeLimit ? { sizeLimit: options.sizeLimit } : {}),
      });
      for await (const page of pages) yield page.searchEntries;
    } catch (e) {
      throw classifyLdapError(e, "search", this.provider.connectionUrl);
    }
  }

  async close(): Promise<void> {
    await this.client.unbind().catch(() => undefined);
  }
}

/**
 * A bind as `dn` with `password` on a fresh connection: true when the server accepts it, false for
 * invalidCredentials; anything else (unreachable, TLS) throws LdapFailure, so the caller fails closed.
 * An empty password is never sent: RFC 4513 section 5.1.2 makes it an unauthenticated bind, which
 * many servers accept as success.
 */
export async function bindAs(provider: ProviderRecord, dn: string, password: string): Promise<boolean> {
  if (!password) return false;
  const client = await newClient(provider);
  try {
    await client.bind(dn, password);
    return true;
  } catch (e) {
    if (lib && e instanceof lib.InvalidCredentialsError) return false;
    throw classifyLdapError(e, "bind", provider.connectionUrl);
  } finally {
    await client.unbind().catch(() => undefined);
  }
}

async function newClient(provider: ProviderRecord): Promise<Client> {
  lib = await ldapts();
  const ms = provider.connectionTimeout * 1000;
  // strictDN off: DNs come from the server (search results) or were checked on save (RFC 4514).
  return new lib.Client({ url: provider.connectionUrl, timeout: ms, connectTimeout: ms, strictDN: false });
}
