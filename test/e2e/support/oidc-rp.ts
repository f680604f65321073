import * as oidc from "openid-client";
import { BrowserSession, parseForms, type PageResponse } from "./browser-session.js";

// Test support for the OIDC browser e2e (no tests here): openid-client as the relying party of a
// realm, and a browser driving the hosted login page over HTTP.

export interface Started { url: URL; verifier: string; state: string; nonce: string }

export class OidcRp {
  /** `target()` is read per call: the server and realm exist only once the suite's beforeAll ran. */
  constructor(
    private readonly target: () => { serverUrl: string; realm: string },
    readonly redirectUri: string,
    private readonly password: string,
  ) {}

  private get issuer(): string {
    const { serverUrl, realm } = this.target();
    return `${serverUrl}/realms/${realm}`;
  }

  /** The methods as plain functions, for tests that call them unqualified. */
  calls() {
    return {
      rp: (clientId: string) => this.config(clientId),
      start: (config: oidc.Configuration, extra?: Record<string, string>) => this.start(config, extra),
      login: (b: BrowserSession, page: PageResponse, username?: string, password?: string) => this.login(b, page, username, password),
      redeem: (config: oidc.Configuration, s: Started, res: PageResponse) => this.redeem(config, s, res),
    };
  }

  /** openid-client configured from discovery for a PUBLIC client. */
  config(clientId: string): Promise<oidc.Configuration> {
    return oidc.discovery(new URL(this.issuer), clientId, undefined, oidc.None(), { execute: [oidc.allowInsecureRequests] });
  }

  /** An authorization request with PKCE S256, state and nonce. */
  async start(config: oidc.Configuration, extra: Record<string, string> = {}): Promise<Started> {
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: this.redirectUri, scope: "openid profile email", state, nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: "S256", ...extra,
    });
    return { url, verifier, state, nonce };
  }

  /** Submits the login page's credentials form. */
  async login(b: BrowserSession, page: PageResponse, username = "alice", password = this.password): Promise<PageResponse> {
    expect(parseForms(page.text)[0]!.fields.step).toBe("login");
    return b.submit(page, { username, password });
  }

  /** Checks the redirect back to the client (state, RFC 9207 iss) and redeems its code. */
  async redeem(config: oidc.Configuration, s: Started, res: PageResponse) {
    expect(res.status).toBe(302);
    const at = new URL(res.location);
    expect(`${at.origin}${at.pathname}`).toBe(this.redirectUri);
    expect(at.searchParams.get("iss")).toBe(this.issuer);
    expect(at.searchParams.get("state")).toBe(s.state);
    return oidc.authorizationCodeGrant(config, at, { pkceCodeVerifier: s.verifier, expectedState: s.state, expectedNonce: s.nonce });
  }
}
