import { createHash, hkdfSync, timingSafeEqual } from "node:crypto";
import type { Interceptor } from "@connectrpc/connect";
import { IamError } from "../errors.js";

/**
 * Who may call a service's RPCs in cluster mode. The services trust what a caller says (the actor
 * header, the realm it names, admin operations), so the network port must not be open to anyone
 * who can reach it: each call carries `authorization: Bearer <credential>`, and a service accepts
 *   - the internal token, which every process derives from the master key it already holds
 *     (gateway -> service and service -> service; nothing more to configure or to leak), and
 *   - the admin API key, for first-party backends calling the services directly (README, Cluster
 *     mode): the same power the key gives over the Admin REST API.
 * Embedded mode calls in memory, with no port to protect, and installs neither interceptor.
 */
export function internalRpcToken(masterKey: string): string {
  // A key of its own (HKDF, RFC 5869), not the master key: a leaked token decrypts nothing.
  return Buffer.from(hkdfSync("sha256", Buffer.from(masterKey, "base64url"), "tessera", "service-rpc-v1", 32)).toString("base64url");
}

/** Server side: refuses a call without one of the accepted bearer credentials (Unauthenticated). */
export function requireServiceCredential(accepted: readonly string[]): Interceptor {
  const check = serviceCredentialCheck(accepted);
  return (next) => async (req) => {
    if (!check(req.header.get("authorization"))) throw serviceCredentialRefused();
    return next(req);
  };
}

/**
 * Whether an `authorization` header carries one of the accepted credentials: per call on the
 * Connect and gRPC path, once per stream on the internal frames hop (frame-server.ts).
 */
export function serviceCredentialCheck(accepted: readonly string[]): (authorization: string | null | undefined) => boolean {
  // Compared as SHA-256 digests, in constant time: equal lengths, and no early exit on a prefix.
  const digests = accepted.map(digest);
  return (header) => {
    const presented = header?.startsWith("Bearer ") ? digest(header.slice(7)) : null;
    let ok = false;
    if (presented) for (const d of digests) ok = timingSafeEqual(presented, d) || ok;
    return ok;
  };
}

/** The one answer to a missing or wrong credential, whichever path the call came by. */
export function serviceCredentialRefused(): IamError {
  return IamError.unauthenticated("this service needs a valid bearer credential (the admin API key)", "service_credential_required");
}

/** Client side: sends the credential on every call. */
export function presentServiceCredential(token: string): Interceptor {
  const value = `Bearer ${token}`;
  return (next) => async (req) => {
    req.header.set("authorization", value);
    return next(req);
  };
}

function digest(s: string): Buffer {
  return createHash("sha256").update(s, "utf8").digest();
}
