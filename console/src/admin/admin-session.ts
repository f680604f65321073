/**
 * The signed-in administrator (spec 4.14): the JWT of `POST /admin/auth/login`, held in memory
 * only (never localStorage or a cookie, so nothing outlives the tab), and renewed a minute before
 * its `exp`. The Admin API has no refresh grant, so renewal signs in again with the credentials
 * the administrator typed, kept in this closure for as long as the session lasts; sign-out and a
 * failed renewal forget them and the token together.
 */
import { ApiFailure, failureFrom } from "../ui/api-failure";

export interface AdminUser {
  id: string;
  username: string;
}

interface Held {
  token: string;
  expiresAt: number;
  user: AdminUser;
  username: string;
  password: string;
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

  get user(): AdminUser | null {
    return this.held?.user ?? null;
  }

  subscribe(l: Listener): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }

  async signIn(username: string, password: string): Promise<void> {
    const res = await fetch("/admin/auth/login", {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify({ username, password }),
      credentials: "omit",
    });
    const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
    if (res.status !== 200) throw failureFrom(res.status, body);
    const token = String(body.accessToken ?? "");
    const user = body.user as AdminUser;
    this.held = { token, expiresAt: expiryOf(token, Number(body.expiresIn ?? 0)), user, username, password };
    this.endedBecause = "";
    this.schedule();
    this.emit();
  }

  signOut(reason = ""): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.held = null;
    this.endedBecause = reason;
    this.emit();
  }

  /** The token's renewal: a new login with the held credentials; a refusal ends the session. */
  async renew(): Promise<boolean> {
    const held = this.held;
    if (!held) return false;
    try {
      await this.signIn(held.username, held.password);
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
    let res = await this.send(method, path, body);
    if (res.status === 401 && this.held && (await this.renew())) res = await this.send(method, path, body);
    if (res.status === 204) return undefined as T;
    const text = await res.text();
    const parsed = text ? (JSON.parse(text) as unknown) : undefined;
    if (!res.ok) throw failureFrom(res.status, (parsed ?? {}) as Record<string, unknown>);
    return parsed as T;
  }

  private send(method: string, path: string, body?: unknown): Promise<Response> {
    const headers: Record<string, string> = { Accept: "application/json" };
    if (this.held) headers.Authorization = `Bearer ${this.held.token}`;
    if (body !== undefined) headers["Content-Type"] = "application/json";
    return fetch(path, { method, headers, credentials: "omit", ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  }

  private schedule(): void {
    clearTimeout(this.timer);
    if (!this.held) return;
    const delay = Math.max(5_000, this.held.expiresAt - RENEW_AHEAD_MS - Date.now());
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
