import { createLocalJWKSet, errors, type JSONWebKeySet, type JWSHeaderParameters, type CryptoKey } from "jose";
import { guardedFetch } from "../../../kit/src/outbound/guarded-fetch.js";
import type { OutboundPolicy } from "../../../kit/src/outbound/address-policy.js";
import type { Clock } from "../../../kit/src/store/port.js";
import type { ClientInfo } from "./client-directory.js";

/** A fetched JWK Set is trusted this long (a client rotating keys waits at most this, or adds a new kid). */
const TTL_MS = 5 * 60_000;
/** An unknown kid refetches the set, at most this often per URL, so made-up kids cannot make Tessera a request amplifier. */
const REFETCH_COOLDOWN_MS = 10_000;
/** Distinct jwks_uris kept; the oldest is dropped beyond it. */
const MAX_ENTRIES = 1000;
const FETCH_TIMEOUT_MS = 5_000;
const MAX_BYTES = 256 * 1024;

type KeyLookup = (header: JWSHeaderParameters) => Promise<CryptoKey>;

interface Entry {
  lookup: KeyLookup;
  fetchedAt: number;
}

/**
 * The public keys of a private_key_jwt client (RFC 7523, OIDC Core 1.0 section 9 and 10.1.1): its
 * `jwks` by value, or its `jwksUri` fetched through the SSRF-guarded client (DESIGN 4: private,
 * link-local and metadata addresses always refused; loopback only with
 * TESSERA_OUTBOUND_ALLOW_LOOPBACK=true), cached for TTL_MS and fetched again once when an
 * assertion names a kid the cached set lacks (OIDC Core 10.1.1: a client rotates by publishing a
 * new kid). Keyed by URL: two clients sharing a URL share the fetch.
 */
export class ClientJwks {
  private readonly byUri = new Map<string, Entry>();

  constructor(private readonly policy: OutboundPolicy, private readonly clock: Clock) {}

  /** The key the assertion's header names; rejects when there is none (the caller answers invalid_client). */
  async key(client: ClientInfo, header: JWSHeaderParameters): Promise<CryptoKey> {
    if (client.jwks && client.jwks.keys.length > 0) return createLocalJWKSet(client.jwks as JSONWebKeySet)(header) as Promise<CryptoKey>;
    if (!client.jwksUri) throw new Error("client has no keys");
    const uri = client.jwksUri;
    let entry = this.byUri.get(uri);
    if (!entry || this.clock.now() - entry.fetchedAt >= TTL_MS) entry = await this.fetch(uri);
    try {
      return await entry.lookup(header);
    } catch (e) {
      if (!(e instanceof errors.JWKSNoMatchingKey) || this.clock.now() - entry.fetchedAt < REFETCH_COOLDOWN_MS) throw e;
      return (await this.fetch(uri)).lookup(header);
    }
  }

  /** Drops every cached set (the client's update may have changed its URL's keys). */
  clear(): void {
    this.byUri.clear();
  }

  private async fetch(uri: string): Promise<Entry> {
    const res = await guardedFetch(uri, this.policy, { timeoutMs: FETCH_TIMEOUT_MS, maxBytes: MAX_BYTES, headers: { accept: "application/json" } });
    if (res.status !== 200) throw new Error(`jwks_uri answered ${res.status}`);
    const body = res.json() as { keys?: unknown };
    if (!Array.isArray(body?.keys)) throw new Error("jwks_uri did not return a JWK Set");
    const entry: Entry = { lookup: createLocalJWKSet(body as JSONWebKeySet) as KeyLookup, fetchedAt: this.clock.now() };
    this.byUri.delete(uri);
    this.byUri.set(uri, entry);
    if (this.byUri.size > MAX_ENTRIES) this.byUri.delete(this.byUri.keys().next().value!);
    return entry;
  }
}
