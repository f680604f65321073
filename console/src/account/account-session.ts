/**
 * The signed-in user of the account console: an OpenID Connect login to the page's own realm as
 * its public client `account-console`, by the authorization code flow with PKCE S256 (RFC 7636;
 * OAuth 2.0 Security BCP section 2.1.1). The tokens are held in memory only; the PKCE verifier,
 * state and nonce wait in sessionStorage for the one redirect back, then are removed. A reload
 * signs in again through the realm's SSO cookie, without a form.
 */
import { failureFrom } from "../ui/api-failure";
import { noteLinkReturn, takeLinkOutcome, type LinkOutcome } from "./account-link";

export const CLIENT_ID = "account-console";
const PENDING = "tessera.account.pending";
/** Refresh this long before the access token's `exp`. */
const RENEW_AHEAD_MS = 30_000;

interface Tokens {
  access: string;
  refresh: string;
  idToken: string;
  expiresAt: number;
}

type Listener = () => void;

export class AccountSession {
  readonly realm: string;
  readonly base: string;
  private tokens: Tokens | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /**
   * Set once a sign-out is navigating away. A call in flight when the session ended (the device
   * list's own GET, a renewal) then gets a 401 and would start a sign-in of its own, racing the
   * logout's navigation for the page: which one won decided where the user landed.
   */
  private leaving = false;
  private readonly listeners = new Set<Listener>();
  /** The signed-in user's name from the ID token, for the masthead. */
  username = "";
  /** A failed sign-in, shown instead of the console. */
  error = "";
  /** The application-initiated action the last sign-in completed ("" for a plain sign-in). */
  completedAction = "";
  /** The account link the browser came back from before this sign-in (account-link.ts). */
  linkOutcome: LinkOutcome | null = null;

  constructor(loc: Location = location) {
    const m = /^\/realms\/([^/]+)\/account\//.exec(loc.pathname);
    this.realm = m ? decodeURIComponent(m[1]!) : "";
    this.base = `${loc.origin}/realms/${encodeURIComponent(this.realm)}`;
  }

  get signedIn(): boolean {
    return this.tokens !== null;
  }

  /** The console's own address: the client's one redirect URI. */
  get redirectUri(): string {
    return `${this.base}/account/`;
  }

  subscribe(l: Listener): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }

  /** Finishes a redirect back from the login, or starts one. */
  async start(): Promise<void> {
    const params = new URLSearchParams(location.search);
    if (params.has("code") || params.has("error")) {
      await this.finish(params);
      return;
    }
    noteLinkReturn(params);
    await this.signIn();
  }

  /**
   * Sends the browser to the realm's login. `action` is an application-initiated action
   * (Keycloak's kc_action, e.g. "webauthn-register-passwordless"): the hosted pages ask for the
   * password again, run the action's own ceremony, and come back here with a new code.
   */
  async signIn(action = ""): Promise<void> {
    if (this.leaving) return;
    const verifier = random(32);
    const state = random(16);
    const nonce = random(16);
    sessionStorage.setItem(PENDING, JSON.stringify({ verifier, state, nonce, hash: location.hash, action }));
    const q = new URLSearchParams({
      response_type: "code", client_id: CLIENT_ID, redirect_uri: this.redirectUri, scope: "openid",
      state, nonce, code_challenge: await s256(verifier), code_challenge_method: "S256",
      ...(action ? { kc_action: action } : {}),
    });
    location.assign(`${this.base}/protocol/openid-connect/auth?${q}`);
  }

  /** RP-initiated logout (OpenID Connect RP-Initiated Logout 1.0): the realm's SSO session ends too. */
  signOut(): void {
    this.leaving = true;
    const idToken = this.tokens?.idToken ?? "";
    this.forget();
    const q = new URLSearchParams({ client_id: CLIENT_ID, post_logout_redirect_uri: this.redirectUri, ...(idToken ? { id_token_hint: idToken } : {}) });
    location.assign(`${this.base}/protocol/openid-connect/logout?${q}`);
  }

  /** An account API call; a 401 refreshes once and retries, and a refused refresh signs in again. */
  async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    let res = await this.send(method, path, body);
    if (res.status === 401 && this.tokens) {
      if (!(await this.refresh())) {
        await this.signIn();
        return new Promise<T>(() => undefined);
      }
      res = await this.send(method, path, body);
    }
    if (res.status === 204) return undefined as T;
    const text = await res.text();
    const parsed = text ? (JSON.parse(text) as unknown) : undefined;
    if (!res.ok) throw failureFrom(res.status, (parsed ?? {}) as Record<string, unknown>);
    return parsed as T;
  }

  private send(method: string, path: string, body?: unknown): Promise<Response> {
    const headers: Record<string, string> = { Accept: "application/json" };
    if (this.tokens) headers.Authorization = `Bearer ${this.tokens.access}`;
    if (body !== undefined) headers["Content-Type"] = "application/json";
    return fetch(`${this.base}/account${path}`, { method, headers, credentials: "omit", ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  }

  private async finish(params: URLSearchParams): Promise<void> {
    const pending = JSON.parse(sessionStorage.getItem(PENDING) ?? "null") as { verifier: string; state: string; nonce: string; hash: string; action?: string } | null;
    sessionStorage.removeItem(PENDING);
    history.replaceState(null, "", `${location.pathname}${pending?.hash ?? ""}`);
    if (!pending || params.get("state") !== pending.state) {
      // A stale or forged answer (RFC 6749 section 10.12): start over rather than use it.
      await this.signIn();
      return;
    }
    if (params.has("error")) {
      this.error = params.get("error_description") || params.get("error") || "sign-in failed";
      this.emit();
      return;
    }
    const ok = await this.token({ grant_type: "authorization_code", code: params.get("code") ?? "", redirect_uri: this.redirectUri, code_verifier: pending.verifier });
    if (!ok) {
      this.error = "The sign-in could not be completed; try again.";
      this.emit();
      return;
    }
    this.completedAction = pending.action ?? "";
    this.linkOutcome = takeLinkOutcome();
    this.emit();
  }

  private async refresh(): Promise<boolean> {
    if (!this.tokens?.refresh) return false;
    return this.token({ grant_type: "refresh_token", refresh_token: this.tokens.refresh });
  }

  private async token(form: Record<string, string>): Promise<boolean> {
    const res = await fetch(`${this.base}/protocol/openid-connect/token`, {
      method: "POST", credentials: "omit",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" },
      body: new URLSearchParams({ client_id: CLIENT_ID, ...form }),
    });
    if (res.status !== 200) {
      this.forget();
      return false;
    }
    const body = (await res.json()) as { access_token: string; refresh_token?: string; id_token?: string; expires_in: number };
    this.tokens = {
      access: body.access_token, refresh: body.refresh_token ?? "", idToken: body.id_token ?? this.tokens?.idToken ?? "",
      expiresAt: Date.now() + body.expires_in * 1000,
    };
    this.username = String(claims(this.tokens.idToken || this.tokens.access).preferred_username ?? "");
    this.schedule();
    this.emit();
    return true;
  }

  /** Drops the tokens (a password change or a sign-out ended the session). */
  forget(): void {
    clearTimeout(this.timer);
    this.tokens = null;
    this.emit();
  }

  private schedule(): void {
    clearTimeout(this.timer);
    if (!this.tokens) return;
    const delay = Math.max(5_000, this.tokens.expiresAt - RENEW_AHEAD_MS - Date.now());
    this.timer = setTimeout(() => void this.refresh().then((ok) => { if (!ok) void this.signIn(); }), delay);
  }

  private emit(): void {
    for (const l of this.listeners) l();
  }
}

function random(bytes: number): string {
  return b64url(crypto.getRandomValues(new Uint8Array(bytes)));
}

async function s256(verifier: string): Promise<string> {
  return b64url(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier))));
}

function b64url(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function claims(jwt: string): Record<string, unknown> {
  try {
    return JSON.parse(atob(jwt.split(".")[1]!.replace(/-/g, "+").replace(/_/g, "/"))) as Record<string, unknown>;
  } catch {
    return {};
  }
}
