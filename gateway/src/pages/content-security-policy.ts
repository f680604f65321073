/**
 * The Content-Security-Policy of the hosted pages (DESIGN 5): nothing loads but the page's own
 * styles and images, no script but a nonce-bearing one, no framing, and forms post only to the page
 * itself plus, while a flow may end at the client, the client's registered redirect target.
 */
export interface PageCspOptions {
  /**
   * Where the flow may end (`form_action_origin` of the flow's answer): an http(s) origin, or the
   * scheme source ("com.example.app:") of a native app's private-use redirect URI (RFC 8252 section 7.1).
   */
  formAction?: string;
  /** A nonce admitting exactly the page's own inline script (SAML auto-submit), nothing injected. */
  scriptNonce?: string;
  /** Origins the page may frame (SAML front-channel logout). */
  frameOrigins?: string[];
  /** Hash sources ('sha256-...') of the page's own static inline scripts (password-toggle.ts). */
  scriptHashes?: string[];
}

const ORIGIN = /^https?:\/\/[^\s;,']+$/;

/** CSP3 section 2.3.1 hash-source, SHA-256 only. */
const HASH_SOURCE = /^'sha256-[A-Za-z0-9+/]{43}='$/;

/** RFC 3986 section 3.1: scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ); with its ":", a CSP scheme-source (CSP3 section 2.3.1). */
const SCHEME_SOURCE = /^[A-Za-z][A-Za-z0-9+.-]*:$/;

/**
 * Schemes a scheme source must never name: http(s) and ws(s) would admit every site, the rest
 * run script or read local data. Registration refuses them as redirect URIs already (client-rules.ts);
 * the page's policy does not rely on that.
 */
const NEVER = new Set(["http:", "https:", "ws:", "wss:", "javascript:", "vbscript:", "data:", "blob:", "filesystem:", "file:", "about:"]);

/**
 * The form-action source for `value`, or "" when it is neither an http(s) origin nor a safe scheme
 * source: only a value that is one whole source expression gets in, so nothing can add CSP syntax.
 */
export function formActionSource(value: string): string {
  if (ORIGIN.test(value)) return value;
  if (SCHEME_SOURCE.test(value) && !NEVER.has(value.toLowerCase())) return value.toLowerCase();
  return "";
}


/**
 * The policy. form-action also governs the redirects that follow a form submission (CSP3 section
 * 6.3.1, enforced by Chromium), so the login page's POST answered by a 302 to a native app's
 * `com.example.app:/cb?code=...` needs that scheme in form-action, not only http(s) origins.
 */
export function pageCsp(options: PageCspOptions = {}): string {
  const action = formActionSource(options.formAction ?? "");
  const nonce = options.scriptNonce ?? "";
  const sources = [
    ...(/^[A-Za-z0-9_-]{16,}$/.test(nonce) ? [`'nonce-${nonce}'`] : []),
    ...(options.scriptHashes ?? []).filter((h) => HASH_SOURCE.test(h)),
  ];
  const script = sources.length ? ` script-src ${sources.join(" ")};` : "";
  const frames = (options.frameOrigins ?? []).filter((o) => ORIGIN.test(o));
  const frameSrc = frames.length ? ` frame-src ${frames.join(" ")};` : "";
  return `default-src 'none';${script}${frameSrc} style-src 'self' 'unsafe-inline'; img-src 'self' data: https:; form-action 'self'${action ? ` ${action}` : ""}; frame-ancestors 'none'; base-uri 'none'`;
}
