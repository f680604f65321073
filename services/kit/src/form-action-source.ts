/**
 * The CSP form-action source admitting `uri` (the hosted pages, gateway/src/pages): its origin, or
 * for a native app's private-use scheme ("com.example.app:/cb", RFC 8252 section 7.1), which has no
 * origin ("null"), its scheme ("com.example.app:"); "" for what is no absolute URI. Shared by the
 * token service, which names the source with each flow reply, and the gateway's auto-post pages.
 * The gateway still admits only what content-security-policy.ts accepts as a source.
 */
export function formActionSourceOf(uri: string): string {
  try {
    const u = new URL(uri);
    return u.protocol === "http:" || u.protocol === "https:" ? u.origin : u.protocol;
  } catch {
    return "";
  }
}
