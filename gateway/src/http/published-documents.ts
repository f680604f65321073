import { createHash } from "node:crypto";

/** A public document serialized once per version: what a GET sends, and its strong validator. */
export interface PreparedDocument {
  body: Buffer;
  /** A strong entity tag (RFC 9110 section 8.8.3): the SHA-256 of exactly these bytes. */
  etag: string;
}

interface Entry {
  source: unknown;
  doc: PreparedDocument;
}

/** Realms whose documents are kept; past it the oldest is dropped (unknown names are never cached). */
const MAX_ENTRIES = 10_000;

/**
 * The serialized public documents (discovery, the JWK Set, SAML metadata) per realm, built once per
 * version of their content rather than per request: a GET of an unchanged document does no
 * JSON.stringify and no hashing. The version is the content the owning service answered: the same
 * object (the in-process hop hands the service's cached value over) or, after a network hop that
 * decodes a fresh copy, an equal one (a structural comparison, much cheaper than serializing and
 * hashing). Any change of content, a rotated key or a new client scope, is a new body and a new
 * ETag on the very request that first sees it, so nothing here can serve a stale document.
 */
export class PublishedDocuments {
  private readonly entries = new Map<string, Entry>();

  prepare(key: string, source: unknown, serialize: (source: unknown) => string | Buffer): PreparedDocument {
    const hit = this.entries.get(key);
    if (hit && (hit.source === source || sameContent(hit.source, source))) {
      hit.source = source;
      return hit.doc;
    }
    const raw = serialize(source);
    const body = typeof raw === "string" ? Buffer.from(raw, "utf8") : raw;
    const doc = { body, etag: `"${createHash("sha256").update(body).digest("base64url")}"` };
    if (!hit && this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, { source, doc });
    return doc;
  }
}

/**
 * If-None-Match (RFC 9110 section 13.1.2): true when the header lists the current tag, or is "*".
 * The comparison is the weak one (section 8.8.3.2), as the section requires: a W/ prefix is
 * ignored, so a client that weakened our tag (a compressing proxy does) still revalidates.
 */
export function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const opaque = etag.startsWith("W/") ? etag.slice(2) : etag;
  for (const part of header.split(",")) {
    const tag = part.trim();
    if (tag === "*" || (tag.startsWith("W/") ? tag.slice(2) : tag) === opaque) return true;
  }
  return false;
}

/** Structural equality of decoded documents (JSON values and protobuf message objects). */
function sameContent(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameContent(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) {
    if (!Object.prototype.hasOwnProperty.call(b, k) || !sameContent((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  }
  return true;
}
