import { adminApi, uniqueName } from "./http.js";
import type { Target } from "./targets.js";
import { startEmbeddedServer, type TestServer } from "./embedded-server.js";
import { BrowserSession, type PageResponse } from "./browser-session.js";
import { OidcRp } from "./oidc-rp.js";
import { UpstreamOp, UpstreamStandIn } from "./upstream-idp.js";

// The brokering e2e's shared setup and browser steps (no tests here).

/** The embedded server's state lifetime (TESSERA_BROKER_STATE_TTL_SECONDS), short enough to outwait. */
export const STATE_TTL_S = 12;
export const CB = "http://localhost:3998/cb";
export const PASSWORD = "Correct-Horse-9";
export const UPSTREAM_SECRET = "upstream-secret-upstream-secret";
export const FORGED = ["bad-signature", "expired", "alg-none", "wrong-nonce", "hmac-public-key"] as const;

export interface LocalUser { id: string; username: string; email?: string; firstName?: string; lastName?: string; emailVerified: boolean }

/**
 * A Tessera server (embedded with TESSERA_OUTBOUND_ALLOW_LOOPBACK=true, or the shared cluster),
 * a realm with a PUBLIC client "rp" and the provider "up" (oidc-provider found through its
 * issuer's discovery), a second realm with brute-force protection, and the upstreams.
 */
export class BrokeringWorld {
  server!: TestServer;
  api!: ReturnType<typeof adminApi>;
  /** The realm the helpers act on (a case may point it at `guardedRealm`). */
  realm = "";
  guardedRealm = "";
  op!: UpstreamOp;
  standIn!: UpstreamStandIn;
  readonly rp: OidcRp;

  constructor(private readonly target: Target, private readonly name: string) {
    this.rp = new OidcRp(() => ({ serverUrl: this.server.url, realm: this.realm }), CB, PASSWORD);
  }

  get embedded(): boolean {
    return this.target.mode === "embedded";
  }

  async setUp(): Promise<void> {
    this.server = this.embedded
      ? await startEmbeddedServer(this.name, { TESSERA_OUTBOUND_ALLOW_LOOPBACK: "true", TESSERA_BROKER_STATE_TTL_SECONDS: String(STATE_TTL_S) })
      : await this.target.start(this.name);
    this.api = adminApi(this.server.url, this.server.apiKey);
    this.realm = uniqueName("broker");
    this.guardedRealm = uniqueName("broker-bf");
    await this.must(this.api.post("/admin/realms", { name: this.realm, eventsEnabled: true, adminEventsEnabled: true }));
    await this.must(this.api.post("/admin/realms", { name: this.guardedRealm, eventsEnabled: true, bruteForceEnabled: true, maxLoginFailures: 2, lockoutDuration: 600 }));
    for (const r of [this.realm, this.guardedRealm]) {
      await this.must(this.api.post(`/admin/realms/${r}/clients`, { clientId: "rp", clientType: "PUBLIC", redirectUris: [CB] }));
    }
    this.op = await UpstreamOp.start("tessera", UPSTREAM_SECRET, [
      ...["up", "gh", ...FORGED].map((a) => this.callbackOf(a)), `${this.server.url}/realms/${this.guardedRealm}/broker/up/callback`,
    ]);
    this.standIn = await UpstreamStandIn.start("tessera", UPSTREAM_SECRET);
    for (const r of [this.realm, this.guardedRealm]) {
      await this.must(this.api.post(`/admin/realms/${r}/identity-providers`, {
        alias: "up", displayName: "Upstream", providerType: "oidc", clientId: "tessera", clientSecret: UPSTREAM_SECRET,
        authorizationUrl: `${this.op.url}/auth`, tokenUrl: `${this.op.url}/token`, issuer: this.op.url,
      }));
    }
  }

  async tearDown(): Promise<void> {
    await this.op?.stop();
    await this.standIn?.stop();
    await this.server?.stop();
  }

  idps(): string {
    return `/admin/realms/${this.realm}/identity-providers`;
  }

  callbackOf(alias: string): string {
    return `${this.server.url}/realms/${this.realm}/broker/${alias}/callback`;
  }

  /** The login page of a new authorization request of `clientId`. */
  async loginPage(b: BrowserSession, clientId = "rp") {
    const config = await this.rp.config(clientId);
    const s = await this.rp.start(config);
    const page = await b.get(s.url.href);
    expect(page.status).toBe(200);
    return { config, s, page };
  }

  buttonHref(page: PageResponse, alias: string): string {
    const m = new RegExp(`id="idp-${alias}" href="([^"]+)"`).exec(page.text);
    if (!m) throw new Error(`no button for ${alias}: ${page.text.slice(0, 500)}`);
    return new URL(m[1]!.replace(/&amp;/g, "&"), this.server.url).href;
  }

  /** Follows the upstream's redirects (a fresh upstream browser) until one comes back to Tessera. */
  async throughUpstream(location: string): Promise<string> {
    const u = new BrowserSession(location);
    let next = location;
    for (let i = 0; i < 12; i++) {
      if (next.startsWith(this.server.url)) return next;
      const r = await u.get(next);
      if (r.status < 300 || r.status >= 400) throw new Error(`upstream answered ${r.status}: ${r.text.slice(0, 300)}`);
      next = new URL(r.location, next).href;
    }
    throw new Error("upstream redirects did not come back");
  }

  /** Login page -> provider button -> upstream -> Tessera's callback; answers the callback's response. */
  async viaButton(b: BrowserSession, page: PageResponse, alias: string): Promise<PageResponse> {
    const out = await b.get(this.buttonHref(page, alias));
    expect(out.status).toBe(302);
    return b.get(await this.throughUpstream(out.location));
  }

  /** A whole login of the RP through `alias` as the upstream account `account`, up to Tessera's answer. */
  async loginAs(account: string, alias = "up") {
    this.op.nextLogin = account;
    const b = new BrowserSession(this.server.url);
    const { config, s, page } = await this.loginPage(b);
    const back = await this.viaButton(b, page, alias);
    return { b, config, s, back };
  }

  async userByName(username: string): Promise<LocalUser | undefined> {
    const res = await this.api.get(`/admin/realms/${this.realm}/users?username=${encodeURIComponent(username)}`);
    return res.body.users[0] as LocalUser | undefined;
  }

  private async must(call: Promise<{ status: number; text: string }>): Promise<void> {
    const res = await call;
    if (res.status !== 201) throw new Error(`setup call answered ${res.status}: ${res.text}`);
  }
}

/** An HTML error page with this status and error code, and no redirect. */
export function expectErrorPage(res: PageResponse, status: number, code: string): void {
  expect([res.status, /<code id="error-code">([^<]*)<\/code>/.exec(res.text)?.[1], res.location]).toEqual([status, code, ""]);
}
