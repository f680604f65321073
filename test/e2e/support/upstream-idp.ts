import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { randomBytes } from "node:crypto";
import { exportJWK, generateKeyPair, SignJWT, type JWK } from "jose";
import Provider from "oidc-provider";

// Upstream identity providers for the brokering e2e (no tests here).

export interface UpstreamAccount {
  sub: string;
  preferred_username?: string;
  email?: string;
  email_verified?: boolean;
  given_name?: string;
  family_name?: string;
  /** Claims beyond OIDC's standard ones, for the identity provider mappers (profile scope). */
  department?: string;
  groups?: string[];
  /** A namespaced claim (Auth0's style): its name holds dots. */
  "https://corp.test/tier"?: string;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function close(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((r) => server.close(() => r()));
}

/**
 * panva's oidc-provider on loopback: the real upstream OpenID Provider. `nextLogin` names the
 * account the interaction logs in (the interaction itself is not under test); every grant covers
 * openid profile email, and ID tokens carry the scopes' claims (conformIdTokenClaims off); the
 * profile scope also carries `department`, `groups` and `https://corp.test/tier`, claims the
 * mappers read.
 */
export class UpstreamOp {
  nextLogin = "";
  /** The parameters of each authorization request the provider received (login_hint among them), oldest first. */
  readonly authorizationRequests: Array<Record<string, unknown>> = [];
  readonly accounts = new Map<string, UpstreamAccount>();

  private constructor(readonly url: string, private readonly server: Server) {}

  static async start(clientId: string, clientSecret: string, redirectUris: string[]): Promise<UpstreamOp> {
    let op!: UpstreamOp;
    let provider!: InstanceType<typeof Provider>;
    const server = createServer((req, res) => {
      if (req.url?.startsWith("/interaction/")) {
        provider.interactionDetails(req, res)
          .then((details) => {
            op.authorizationRequests.push({ ...details.params });
            return provider.interactionFinished(req, res, { login: { accountId: op.nextLogin } }, { mergeWithLastSubmission: false });
          })
          .catch((e: unknown) => { res.statusCode = 500; res.end(String(e)); });
        return;
      }
      provider.callback()(req, res);
    });
    const url = await listen(server);
    const { privateKey } = await generateKeyPair("RS256", { extractable: true });
    const ttl = 600;
    provider = new Provider(url, {
      jwks: { keys: [{ ...(await exportJWK(privateKey)), kid: "op-1", alg: "RS256", use: "sig" }] },
      ttl: { Interaction: ttl, Grant: ttl, Session: ttl, AccessToken: ttl, IdToken: ttl, AuthorizationCode: 60 },
      clients: [{
        client_id: clientId, client_secret: clientSecret, redirect_uris: redirectUris,
        grant_types: ["authorization_code"], response_types: ["code"], token_endpoint_auth_method: "client_secret_basic",
      }],
      claims: { openid: ["sub"], profile: ["preferred_username", "given_name", "family_name", "department", "groups", "https://corp.test/tier"], email: ["email", "email_verified"] },
      conformIdTokenClaims: false,
      features: { devInteractions: { enabled: false } },
      interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
      findAccount: (_ctx, id) => {
        const account = op.accounts.get(id);
        return account ? { accountId: id, claims: async () => ({ ...account }) } : undefined;
      },
      loadExistingGrant: async (ctx) => {
        const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client!.clientId, accountId: ctx.oidc.session!.accountId! });
        grant.addOIDCScope("openid profile email");
        await grant.save();
        return grant;
      },
    });
    op = new UpstreamOp(url, server);
    return op;
  }

  stop(): Promise<void> {
    return close(this.server);
  }
}

/**
 * Stand-ins, because a real peer cannot play these parts here: (1) an upstream that signs bad ID
 * tokens on purpose (oidc-provider signs only well-formed ones), one mode per path prefix
 * /m/<mode>/...; (2) GitHub's OAuth and REST API (GitHub cannot be reached from this machine),
 * shaped as GitHub documents them: POST /login/oauth/access_token with the client credentials in
 * the body, GET /user and GET /user/emails with the access token.
 */
export class UpstreamStandIn {
  /** What the last token request carried, for assertions. */
  lastTokenForm: URLSearchParams | null = null;
  githubUser: Record<string, unknown> = { id: 4242, login: "octo-cat", name: "Octo Cat", email: null };
  githubEmails: Array<Record<string, unknown>> = [
    { email: "octo-old@example.com", primary: false, verified: true },
    { email: "octo@example.com", primary: true, verified: true },
  ];
  private readonly codes = new Map<string, { nonce: string; clientId: string }>();

  private constructor(
    readonly url: string, private readonly server: Server, private readonly key: { privateKey: CryptoKey; jwk: JWK },
    private readonly otherKey: CryptoKey, readonly clientId: string, private readonly clientSecret: string,
  ) {}

  static async start(clientId: string, clientSecret: string): Promise<UpstreamStandIn> {
    const { privateKey, publicKey } = await generateKeyPair("RS256", { extractable: true });
    const other = await generateKeyPair("RS256");
    const jwk = { ...(await exportJWK(publicKey)), kid: "k1", alg: "RS256", use: "sig" };
    let self!: UpstreamStandIn;
    const server = createServer((req, res) => { self.handle(req, res).catch((e: unknown) => { res.statusCode = 500; res.end(String(e)); }); });
    const url = await listen(server);
    self = new UpstreamStandIn(url, server, { privateKey, jwk }, other.privateKey, clientId, clientSecret);
    return self;
  }

  stop(): Promise<void> {
    return close(this.server);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const u = new URL(req.url ?? "/", this.url);
    const json = (status: number, body: unknown) => { res.writeHead(status, { "content-type": "application/json" }); res.end(JSON.stringify(body)); };
    if (u.pathname === "/jwks") return json(200, { keys: [this.key.jwk] });
    if (u.pathname.endsWith("/authorize")) {
      // The user "logs in" at once: back to the redirect_uri with a code.
      const code = randomBytes(12).toString("hex");
      this.codes.set(code, { nonce: u.searchParams.get("nonce") ?? "", clientId: u.searchParams.get("client_id") ?? "" });
      const back = new URL(u.searchParams.get("redirect_uri") ?? "");
      back.searchParams.set("code", code);
      back.searchParams.set("state", u.searchParams.get("state") ?? "");
      // RFC 9207: the mode "wrong-iss" answers as another issuer would.
      if (u.pathname.startsWith("/m/wrong-iss/")) back.searchParams.set("iss", "https://evil.example");
      res.writeHead(302, { location: back.href });
      res.end();
      return;
    }
    if (req.method === "POST" && (u.pathname.endsWith("/token") || u.pathname === "/login/oauth/access_token")) {
      const form = new URLSearchParams(await body(req));
      this.lastTokenForm = form;
      const grant = this.codes.get(form.get("code") ?? "");
      this.codes.delete(form.get("code") ?? "");
      if (!grant || !form.get("code_verifier")) return json(400, { error: "invalid_grant" });
      if (u.pathname === "/login/oauth/access_token") {
        if (form.get("client_id") !== this.clientId || form.get("client_secret") !== this.clientSecret) return json(401, { error: "incorrect_client_credentials" });
        return json(200, { access_token: "gho_standin", token_type: "bearer", scope: "read:user,user:email" });
      }
      const mode = u.pathname.split("/")[2] ?? "";
      return json(200, { access_token: "at", token_type: "Bearer", id_token: await this.idToken(mode, grant.nonce) });
    }
    const bearer = req.headers.authorization === "Bearer gho_standin";
    if (u.pathname === "/user") return bearer ? json(200, this.githubUser) : json(401, { message: "Requires authentication" });
    if (u.pathname === "/user/emails") return bearer ? json(200, this.githubEmails) : json(401, { message: "Requires authentication" });
    json(404, { error: "not_found" });
  }

  /** An ID token spoiled as the mode says; "good" is a valid one. */
  private async idToken(mode: string, nonce: string): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    const claims = { sub: `standin-${mode}`, preferred_username: `standin-${mode}`, nonce: mode === "wrong-nonce" ? "not-the-nonce" : nonce };
    const jwt = () => new SignJWT(claims).setIssuer(this.url).setAudience(this.clientId).setIssuedAt(now - (mode === "expired" ? 600 : 0))
      .setExpirationTime(mode === "expired" ? now - 300 : now + 300);
    if (mode === "bad-signature") return jwt().setProtectedHeader({ alg: "RS256", kid: "k1" }).sign(this.otherKey);
    if (mode === "alg-none") {
      const enc = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");
      return `${enc({ alg: "none", typ: "JWT" })}.${enc({ ...claims, iss: this.url, aud: this.clientId, iat: now, exp: now + 300 })}.`;
    }
    if (mode === "hmac-public-key") {
      // HS256 keyed with the published RSA key's bytes: the classic key-confusion forgery.
      const secret = new TextEncoder().encode(JSON.stringify(this.key.jwk));
      return jwt().setProtectedHeader({ alg: "HS256", kid: "k1" }).sign(secret);
    }
    return jwt().setProtectedHeader({ alg: "RS256", kid: "k1" }).sign(this.key.privateKey);
  }
}

function body(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}
