/**
 * Linking an identity provider from the console (Keycloak's client-initiated account linking):
 * the account API makes the link URI for this session, the browser leaves for it, and comes back
 * to the console's address, with `link_error` and our `nonce` when the link failed. The console
 * signs in again on its return (its tokens live in memory); what to show, and on which section,
 * waits in sessionStorage meanwhile.
 */
import type { AccountSession } from "./account-session";

const LINKING = "tessera.account.linking";

export interface LinkOutcome {
  alias: string;
  /** Tessera's or Keycloak's `link_error`; "" when the browser came back without one. */
  error: string;
}

interface Pending {
  alias: string;
  nonce: string;
  hash: string;
  returned?: boolean;
  error?: string;
}

/** Asks for the link URI and sends the browser there. */
export async function startLink(session: AccountSession, alias: string): Promise<void> {
  const r = await session.request<{ accountLinkUri: string; nonce: string }>(
    "GET", `/linked-accounts/${encodeURIComponent(alias)}?redirectUri=${encodeURIComponent(session.redirectUri)}`);
  sessionStorage.setItem(LINKING, JSON.stringify({ alias, nonce: r.nonce, hash: location.hash } satisfies Pending));
  location.assign(r.accountLinkUri);
}

/**
 * The console loaded without a code: if a link was under way, this is its return. Its error is
 * taken only with our nonce (another page cannot make the console claim a failure), and the
 * section it left is put back in the URL, where the sign-in that follows keeps it.
 */
export function noteLinkReturn(params: URLSearchParams): void {
  const pending = read();
  if (!pending || pending.returned) return;
  const error = params.get("nonce") === pending.nonce ? params.get("link_error") ?? "" : "";
  sessionStorage.setItem(LINKING, JSON.stringify({ ...pending, returned: true, error } satisfies Pending));
  history.replaceState(null, "", `${location.pathname}${pending.hash}`);
}

/** After the sign-in that followed the return: the outcome, once. */
export function takeLinkOutcome(): LinkOutcome | null {
  const pending = read();
  if (!pending?.returned) return null;
  sessionStorage.removeItem(LINKING);
  return { alias: pending.alias, error: pending.error ?? "" };
}

/** What a `link_error` means to the user. */
export function linkErrorText(error: string, provider: string): string {
  switch (error) {
    case "federated_identity_exists": return `That ${provider} account is already linked to another user.`;
    case "already_linked": return `Your account is already linked to another ${provider} account.`;
    case "not_logged_in": return "Your session ended before the link was made. Sign in and try again.";
    case "access_denied": return `${provider} did not allow the link.`;
    case "unknown_identity_provider": return `${provider} is not available any more.`;
    default: return `Your ${provider} account could not be linked (${error}).`;
  }
}

function read(): Pending | null {
  try {
    return JSON.parse(sessionStorage.getItem(LINKING) ?? "null") as Pending | null;
  } catch {
    return null;
  }
}
