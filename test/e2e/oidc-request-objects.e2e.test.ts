import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from "jose";
import * as oidc from "openid-client";
import { adminApi, uniqueName } from "./support/http.js";
import { OidcRp } from "./support/oidc-rp.js";
import { unsigned } from "./support/unsigned-jwt.js";
import { targets } from "./support/targets.js";
import type { TestServer } from "./support/embedded-server.js";
import { BrowserSession, parseForms } from "./support/browser-session.js";

/**
 * Request objects (OIDC Core 1.0 section 6, RFC 9101) with openid-client as the relying party.
 */
for (const target of targets()) describe(`OIDC request objects (${target.mode})`, () => {
  let server: TestServer;
  let realm: string;
  let api: ReturnType<typeof adminApi>;
  const CB = "http://localhost:3998/cb";
  const PASSWORD = "Correct-Horse-9";
  let signingKey: CryptoKey;

  beforeAll(async () => {
    server = await target.start("oidc-request-objects");
    api = adminApi(server.url, server.apiKey);
    realm = uniqueName("jar");
    expect((await api.post("/admin/realms", { name: realm })).status).toBe(201);
    expect((await api.post(`/admin/realms/${realm}/clients`, { clientId: "strict", clientType: "PUBLIC", redirectUris: [CB] })).status).toBe(201);
    const lenient = await api.post(`/admin/realms/${realm}/clients`, { clientId: "lenient", clientType: "PUBLIC", redirectUris: [CB], requestObjectSignatureAlg: "any" });
    expect([lenient.status, lenient.body.requestObjectSignatureAlg]).toEqual([201, "any"]);
    const pair = await generateKeyPair("ES256", { extractable: true });
    signingKey = pair.privateKey;
    const jwk = { ...(await exportJWK(pair.publicKey)), kid: "rp-1", use: "sig" };
    const signer = await api.post(`/admin/realms/${realm}/clients`, { clientId: "signer", clientType: "PUBLIC", redirectUris: [CB], jwks: { keys: [jwk] } });
    expect([signer.status, signer.body.jwks, signer.body.requestObjectSignatureAlg]).toEqual([201, { keys: [jwk] }, ""]);
    expect((await api.post(`/admin/realms/${realm}/users`, { username: "alice", email: "alice@example.com", password: PASSWORD })).status).toBe(201);
  }, 90_000);
  afterAll(async () => server?.stop());

  const authUrl = (params: Record<string, string>) => `${server.url}/realms/${realm}/protocol/openid-connect/auth?${new URLSearchParams(params)}`;
  const issuer = () => `${server.url}/realms/${realm}`;
  const { rp, login, redeem } = new OidcRp(() => ({ serverUrl: server.url, realm }), CB, PASSWORD).calls();
  const base = { response_type: "code", scope: "openid", redirect_uri: CB };

  it("logs in with a request object signed with the client's registered key (openid-client JAR)", async () => {
    const config = await rp("signer");
    const verifier = oidc.randomPKCECodeVerifier();
    const started = { verifier, state: oidc.randomState(), nonce: oidc.randomNonce() };
    const url = await oidc.buildAuthorizationUrlWithJAR(config, {
      redirect_uri: CB, scope: "openid", state: started.state, nonce: started.nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: "S256",
    }, { key: signingKey, kid: "rp-1" });
    // openid-client sends only client_id and request: every other parameter is in the object.
    expect([...url.searchParams.keys()].sort()).toEqual(["client_id", "request"]);
    const b = new BrowserSession(server.url);
    const tokens = await redeem(config, { url, ...started }, await login(b, await b.get(url.href)));
    expect(tokens.claims()!.nonce).toBe(started.nonce);
    expect(tokens.claims()!.aud).toBe("signer");
  });

  it.each([
    ["another audience", { aud: "https://elsewhere.example" }, "The request object's aud claim is not valid."],
    ["another issuer", { iss: "strict" }, "The request object's iss claim is not valid."],
    ["an expired object", { exp: 1_000 }, "The request object has expired."],
    ["an object not yet valid", { nbf: 4_000_000_000 }, "The request object's nbf claim is not valid."],
  ])("refuses a signed object with %s, answered with its state", async (_name, claims, description) => {
    const now = Math.floor(Date.now() / 1000);
    const jwt = await new SignJWT({ ...base, client_id: "signer", state: "st-signed", iss: "signer", aud: issuer(), exp: now + 60, ...claims })
      .setProtectedHeader({ alg: "ES256", kid: "rp-1" }).sign(signingKey);
    const res = await new BrowserSession(server.url).get(authUrl({ client_id: "signer", request: jwt }));
    expect(res.status).toBe(302);
    expect(res.location).toBe(`${CB}?${new URLSearchParams({ error: "invalid_request_object", error_description: description, state: "st-signed", iss: issuer() })}`);
  });

  it("refuses an object signed with a key the client did not register", async () => {
    const other = await generateKeyPair("ES256");
    const jwt = await new SignJWT({ ...base, client_id: "signer", state: "st-x", iss: "signer", aud: issuer() })
      .setProtectedHeader({ alg: "ES256", kid: "rp-1" }).sign(other.privateKey);
    const res = await new BrowserSession(server.url).get(authUrl({ client_id: "signer", request: jwt }));
    expect(res.location).toBe(`${CB}?${new URLSearchParams({
      error: "invalid_request_object", error_description: "The request object's signature does not verify with the client's keys.", state: "st-x", iss: issuer(),
    })}`);
  });

  it("accepts an unsigned object where the client allows it, its parameters over the query's", async () => {
    const b = new BrowserSession(server.url);
    const res = await b.get(authUrl({
      client_id: "lenient", response_type: "code", scope: "openid", redirect_uri: "http://wrong.example/cb",
      request: unsigned({ ...base, client_id: "lenient", state: "st-u", code_challenge: "a".repeat(43), code_challenge_method: "S256" }),
    }));
    expect(res.status).toBe(200);
    expect(parseForms(res.text)[0]!.fields.step).toBe("login");
  });

  it("refuses unsigned objects by default, and a client_id that differs from the query's", async () => {
    const res = await new BrowserSession(server.url).get(authUrl({
      client_id: "strict", request: unsigned({ ...base, client_id: "strict", state: "st-q" }),
    }));
    expect(res.location).toBe(`${CB}?${new URLSearchParams({
      error: "invalid_request_object", error_description: "The client does not allow unsigned request objects.", state: "st-q", iss: issuer(),
    })}`);
    const mismatch = await new BrowserSession(server.url).get(authUrl({
      client_id: "lenient", request: unsigned({ ...base, client_id: "strict", state: "st-m" }),
    }));
    expect(mismatch.location).toBe(`${CB}?${new URLSearchParams({
      error: "invalid_request_object", error_description: "The request object's client_id does not match the client_id parameter.", state: "st-m", iss: issuer(),
    })}`);
  });

  it("refuses private keys and unknown algorithms at the Admin API", async () => {
    const pair = await generateKeyPair("ES256", { extractable: true });
    const res = await api.post(`/admin/realms/${realm}/clients`, { clientId: "leaky", clientType: "PUBLIC", jwks: { keys: [await exportJWK(pair.privateKey)] } });
    expect([res.status, res.body.field]).toEqual([400, "jwks.keys[0]"]);
    const alg = await api.put(`/admin/realms/${realm}/clients/strict`, { requestObjectSignatureAlg: "HS256" });
    expect([alg.status, alg.body.field]).toEqual([400, "requestObjectSignatureAlg"]);
  });

  it("answers a refused unsigned object with an auto-submitting form post carrying the object's state", async () => {
    const payload = {
      client_id: "strict", response_type: "code", scope: "openid", redirect_uri: CB,
      response_mode: "form_post", state: "st-in-object", nonce: "n-1",
    };
    const res = await new BrowserSession(server.url).get(authUrl({
      client_id: "strict", response_type: "code", scope: "openid", request: unsigned(payload),
    }));
    expect(res.status).toBe(200);
    expect(res.location).toBe("");
    // OAuth 2.0 Form Post Response Mode: the page posts itself (its CSP-nonce script).
    expect(res.text).toContain("document.getElementById(\"auto-post\").submit();");
    const [form] = parseForms(res.text);
    expect(form).toEqual({
      action: CB, method: "post",
      fields: {
        error: "invalid_request_object",
        error_description: "The client does not allow unsigned request objects.",
        state: "st-in-object", iss: issuer(),
      },
    });
  });
});
