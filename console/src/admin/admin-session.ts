/**
 * The signed-in administrator (spec 4.14): the JWT of `POST /admin/auth/login`, held in memory
 * only (never localStorage or a cookie, so nothing outlives the tab), and renewed a minute before
 * its `exp` with the refresh token the login answered (`POST /admin/auth/refresh`, which answers
 * a new one each time). The password is used for the login request alone and never kept;
 * sign-out and a refused renewal forget both tokens.
 */
import { createTesseraClient, requestPath, type TesseraAnswer, type TesseraClient } from "../../../sdk/typescript/src/index";
import { ApiFailure, failureFrom } from "../ui/api-failure";
import { grantsOf, type RealmGrant } from "./admin-access";

/**
 * The signed-in administrator as the login and each renewal answer it. What it may do decides
 * only what the console offers (the Administrators link); the API checks every request itself.
 */
export interface AdminUser {
  id: string;
  username: string;
  serverAdmin: boolean;
  realmAccess: RealmGrant[];
}

interface Held {
  token: string;
  expiresAt: number;
  user: AdminUser;
  refreshToken: string;
  /** When the refresh token dies unused (30 minutes): the renewal comes before this too. */
  refreshExpiresAt: number;
}

interface Tokens {
  accessToken: string;
  expiresIn: number;
  refreshToken?: string;
  refreshExpiresIn?: number;
  user?: { id?: unknown; username?: unknown; serverAdmin?: unknown; realmAccess?: unknown };
}

/** Renew this long before `exp`: a request in flight then still carries a valid token. */
const RENEW_AHEAD_MS = 60_000;

type Listener = () => void;

export class AdminSession {
  private held: Held | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly listeners = new Set<Listener>();
  /** Why the last session ended without a sign-out (a renewal the server refused), for the sign-in page. */
  endedBecause = "";
  /** How many times the token was renewed in this tab. */
  renewals = 0;
  /**
   * The project's TypeScript SDK (sdk/typescript, generated from the OpenAPI document) on this
   * origin, with the held token; cookies are never sent (the token is the only credential).
   */
  private readonly api: TesseraClient = createTesseraClient({
    baseUrl: location.origin,
    accessToken: () => this.held?.token ?? "",
    fetch: (request: Request) => fetch(new Request(request, { credentials: "omit" })),
  });

  /**
   * The same client whose answers may set cookies, for impersonation alone: its answer sets the
   * realm's SSO cookie in this browser (Keycloak's identity cookie), which the account console
   * opened next then finds. No request sends cookies to /admin (the realm cookies' path is
   * /realms/...), so the token stays the only Admin API credential.
   */
  private readonly cookieApi: TesseraClient = createTesseraClient({
    baseUrl: location.origin,
    accessToken: () => this.held?.token ?? "",
    fetch: (request: Request) => fetch(new Request(request, { credentials: "same-origin" })),
  });

  /** Impersonates a user (POST .../impersonation): the realm's SSO cookie is set; returns where to go. */
  async impersonate(userPath: string): Promise<{ redirect: string; sameRealm: boolean }> {
    let answer = await requestPath<{ redirect: string; sameRealm: boolean }>(this.cookieApi, "POST", `${userPath}/impersonation`, { body: {} });
    if (answer.response.status === 401 && this.held && (await this.renew())) {
      answer = await requestPath<{ redirect: string; sameRealm: boolean }>(this.cookieApi, "POST", `${userPath}/impersonation`, { body: {} });
    }
    if (!answer.response.ok || !answer.data) throw failureFrom(answer.response.status, bodyOf(answer.error));
    return answer.data;
  }

  get user(): AdminUser | null {
    return this.held?.user ?? null;
  }

  subscribe(l: Listener): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }

  async signIn(username: string, password: string): Promise<void> {
    const { data, error, response } = await this.api.POST("/admin/auth/login", { body: { username, password } });
    if (response.status !== 200 || !data) throw failureFrom(response.status, bodyOf(error));
    this.hold(data, username);
  }

  private hold(data: Tokens, username: string): void {
    const token = data.accessToken;
    const user: AdminUser = {
      id: String(data.user?.id ?? ""), username: String(data.user?.username ?? username),
      serverAdmin: data.user?.serverAdmin === true, realmAccess: grantsOf(data.user?.realmAccess),
    };
    const expiresAt = expiryOf(token, data.expiresIn);
    const refreshExpiresAt = data.refreshExpiresIn ? Date.now() + data.refreshExpiresIn * 1000 : expiresAt;
    this.held = { token, expiresAt, user, refreshToken: data.refreshToken ?? "", refreshExpiresAt };
    this.endedBecause = "";
    this.schedule();
    this.emit();
  }

  signOut(reason = ""): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    // The server ends the sign-in too (POST /admin/auth/logout), so a copy of its tokens is
    // worthless from now on; the console forgets them whether or not the call gets through.
    const refreshToken = this.held?.refreshToken;
    if (refreshToken) void this.api.POST("/admin/auth/logout", { body: { refreshToken } }).catch(() => undefined);
    this.held = null;
    this.endedBecause = reason;
    this.emit();
  }

  /** The token's renewal with the refresh token; a refusal (expired, account gone) ends the session. */
  async renew(): Promise<boolean> {
    const held = this.held;
    if (!held) return false;
    try {
      const { data, error, response } = await this.api.POST("/admin/auth/refresh", { body: { refreshToken: held.refreshToken } });
      if (response.status !== 200 || !data) throw failureFrom(response.status, bodyOf(error));
      // A sign-out while the renewal was in flight wins.
      if (this.held !== held) return false;
      this.hold(data, held.user.username);
      this.renewals++;
      this.emit();
      return true;
    } catch (e) {
      this.signOut(e instanceof ApiFailure ? `Your session ended: ${e.message}` : "Your session ended; sign in again.");
      return false;
    }
  }

  /** An Admin API call with the current token; a 401 (the token expired under us) renews once and retries. */
  async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    let answer = await this.send<T>(method, path, body);
    if (answer.response.status === 401 && this.held && (await this.renew())) answer = await this.send<T>(method, path, body);
    if (!answer.response.ok) throw failureFrom(answer.response.status, bodyOf(answer.error));
    return answer.data as T;
  }

  /** Any Admin API path by method: the pages build concrete paths, each one the document names. */
  private send<T>(method: string, path: string, body?: unknown): Promise<TesseraAnswer<T>> {
    return requestPath<T>(this.api, method, path, body !== undefined ? { body } : {});
  }

  private schedule(): void {
    clearTimeout(this.timer);
    if (!this.held) return;
    // Whichever dies first: the access token (an hour) or the unused refresh token (30 minutes).
    const delay = Math.max(5_000, Math.min(this.held.expiresAt, this.held.refreshExpiresAt) - RENEW_AHEAD_MS - Date.now());
    this.timer = setTimeout(() => void this.renew(), delay);
  }

  private emit(): void {
    for (const l of this.listeners) l();
  }
}

/** The JWT's `exp` (RFC 7519 section 4.1.4) in milliseconds; `expiresIn` when the token cannot be read. */
function expiryOf(token: string, expiresIn: number): number {
  try {
    const payload = JSON.parse(atob(token.split(".")[1]!.replace(/-/g, "+").replace(/_/g, "/"))) as { exp?: number };
    if (typeof payload.exp === "number") return payload.exp * 1000;
  } catch {
    // fall through to expiresIn
  }
  return Date.now() + (expiresIn || 300) * 1000;
}

/** An error answer's body as the gateway writes it (`{ error, message, field? }`), or nothing usable. */
function bodyOf(error: unknown): Record<string, unknown> {
  return typeof error === "object" && error !== null ? (error as Record<string, unknown>) : {};
}
