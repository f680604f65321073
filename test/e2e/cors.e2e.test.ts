import { adminApi, http, uniqueName } from "./support/http.js";
import { targets } from "./support/targets.js";
import type { TestServer } from "./support/embedded-server.js";
import { recordResponses } from "./support/http.js";
import { expectResponsesDocumented } from "./support/openapi-check.js";

// Every response this file receives is checked against the OpenAPI document at its end.
const recorded = recordResponses();

/**
 * CORS on the OIDC endpoints (spec 2.3: a client's webOrigins are its allowed CORS origins), the way
 * Keycloak answers a browser application: preflights for any origin, responses readable only by
 * the client's own origins ("+" = its redirect URIs' origins), userinfo by the token's
 * allowed-origins, errors of userinfo by anyone.
 */
describe.each(targets())("CORS on the OIDC endpoints ($mode)", (target) => {
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;
  let realm: string;
  let oidc: string;
  let secret: string;
  const SVC = "https://svc.example.test";
  const SPA = "https://spa.example.test";
  const EVIL = "https://evil.example.test";

  beforeAll(async () => {
    server = await target.start("cors");
    api = adminApi(server.url, server.apiKey);
    realm = uniqueName("cors");
    expect((await api.post("/admin/realms", { name: realm })).status).toBe(201);
    const svc = await api.post(`/admin/realms/${realm}/clients`, {
      clientId: "svc", webOrigins: [SVC], redirectUris: [`${SVC}/cb`], grantTypes: ["client_credentials", "password"],
    });
    expect(svc.status).toBe(201);
    secret = svc.body.secret as string;
    expect((await api.post(`/admin/realms/${realm}/clients`, {
      clientId: "spa", clientType: "PUBLIC", webOrigins: ["+"], redirectUris: [`${SPA}/callback`], grantTypes: ["authorization_code"],
    })).status).toBe(201);
    expect((await api.post(`/admin/realms/${realm}/users`, { username: "cora", password: "Cors-password-1" })).status).toBe(201);
    oidc = `${server.url}/realms/${realm}/protocol/openid-connect`;
  }, 90_000);
  afterAll(async () => server?.stop());

  const basic = () => `Basic ${Buffer.from(`svc:${secret}`).toString("base64")}`;
  const token = (origin: string | undefined, form: Record<string, string>, auth = true) => http("POST", `${oidc}/token`, {
    form, headers: { ...(origin ? { origin } : {}), ...(auth ? { authorization: basic() } : {}) },
  });

  it("answers a preflight for any origin, with the endpoint's methods, and nothing without Origin", async () => {
    const pre = await http("OPTIONS", `${oidc}/token`, {
      headers: { origin: EVIL, "access-control-request-method": "POST", "access-control-request-headers": "authorization, content-type" },
    });
    expect(pre.status).toBe(200);
    expect(pre.text).toBe("");
    expect(pre.headers.get("access-control-allow-origin")).toBe(EVIL);
    expect(pre.headers.get("access-control-allow-methods")).toBe("POST, OPTIONS");
    expect(pre.headers.get("access-control-allow-headers")).toContain("Authorization");
    expect(pre.headers.get("access-control-allow-credentials")).toBe("true");
    expect(pre.headers.get("access-control-max-age")).toBe("3600");
    expect((await http("OPTIONS", `${oidc}/userinfo`, { headers: { origin: SPA } })).headers.get("access-control-allow-methods")).toBe("GET, POST, OPTIONS");
    const bare = await http("OPTIONS", `${oidc}/token`);
    expect(bare.status).toBe(200);
    expect(bare.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("lets only the client's web origins read token answers, errors included", async () => {
    const ok = await token(SVC, { grant_type: "client_credentials" });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("access-control-allow-origin")).toBe(SVC);
    expect(ok.headers.get("access-control-allow-credentials")).toBe("true");
    expect(ok.headers.get("vary")).toContain("Origin");
    const foreign = await token(EVIL, { grant_type: "client_credentials" });
    expect(foreign.status).toBe(200);
    expect(foreign.headers.get("access-control-allow-origin")).toBeNull();
    const none = await token(undefined, { grant_type: "client_credentials" });
    expect(none.headers.get("access-control-allow-origin")).toBeNull();
    const bad = await token(SVC, { grant_type: "authorization_code", code: "nope", redirect_uri: `${SVC}/cb` });
    expect(bad.status).toBe(400);
    expect(bad.headers.get("access-control-allow-origin")).toBe(SVC);
    // "+" is the origins of the redirect URIs: the public SPA client reads its own error.
    const spa = await token(SPA, { grant_type: "authorization_code", client_id: "spa", code: "nope", redirect_uri: `${SPA}/callback`, code_verifier: "x".repeat(43) }, false);
    expect(spa.status).toBe(400);
    expect(spa.body.error).toBe("invalid_grant");
    expect(spa.headers.get("access-control-allow-origin")).toBe(SPA);
    expect((await token(SVC, { grant_type: "authorization_code", client_id: "spa", code: "nope", redirect_uri: `${SPA}/callback` }, false)).headers.get("access-control-allow-origin")).toBeNull();
  });

  it("lets any origin read the answers of a client whose web origins include \"*\"", async () => {
    const any = await api.post(`/admin/realms/${realm}/clients`, { clientId: uniqueName("any"), webOrigins: ["*"], grantTypes: ["client_credentials"] });
    expect(any.status).toBe(201);
    const auth = `Basic ${Buffer.from(`${any.body.clientId as string}:${any.body.secret as string}`).toString("base64")}`;
    const res = await http("POST", `${oidc}/token`, { form: { grant_type: "client_credentials" }, headers: { origin: EVIL, authorization: auth } });
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe(EVIL);
    expect(res.headers.get("access-control-allow-credentials")).toBe("true");
  });

  it("applies the same rule to introspection and revocation, and follows a change of webOrigins at once", async () => {
    const at = (await token(undefined, { grant_type: "client_credentials" })).body.access_token as string;
    const introspect = await http("POST", `${oidc}/token/introspect`, { form: { token: at }, headers: { origin: SVC, authorization: basic() } });
    expect(introspect.body.active).toBe(true);
    expect(introspect.headers.get("access-control-allow-origin")).toBe(SVC);
    expect((await api.put(`/admin/realms/${realm}/clients/svc`, { webOrigins: [EVIL] })).status).toBe(200);
    const revoke = await http("POST", `${oidc}/revoke`, { form: { token: at }, headers: { origin: SVC, authorization: basic() } });
    expect(revoke.status).toBe(200);
    expect(revoke.headers.get("access-control-allow-origin")).toBeNull();
    expect((await token(EVIL, { grant_type: "client_credentials" })).headers.get("access-control-allow-origin")).toBe(EVIL);
    expect((await api.put(`/admin/realms/${realm}/clients/svc`, { webOrigins: [SVC] })).status).toBe(200);
  });

  it("lets userinfo be read by the token's allowed origins, and its errors by anyone", async () => {
    const at = (await token(undefined, { grant_type: "password", username: "cora", password: "Cors-password-1", scope: "openid" })).body.access_token as string;
    const mine = await http("GET", `${oidc}/userinfo`, { headers: { origin: SVC, authorization: `Bearer ${at}` } });
    expect(mine.status).toBe(200);
    expect(mine.body.preferred_username).toBe("cora");
    expect(mine.headers.get("access-control-allow-origin")).toBe(SVC);
    const theirs = await http("GET", `${oidc}/userinfo`, { headers: { origin: EVIL, authorization: `Bearer ${at}` } });
    expect(theirs.status).toBe(200);
    expect(theirs.headers.get("access-control-allow-origin")).toBeNull();
    const invalid = await http("GET", `${oidc}/userinfo`, { headers: { origin: EVIL, authorization: "Bearer not.a.token" } });
    expect(invalid.status).toBe(401);
    expect(invalid.headers.get("access-control-allow-origin")).toBe(EVIL);
    expect(invalid.headers.get("access-control-expose-headers")).toBe("WWW-Authenticate");
  });
});

describe("the responses of this file", () => {
  it("match the OpenAPI document (status, media type, body schema)", () => {
    expect(expectResponsesDocumented(recorded)).toBeGreaterThan(0);
  });
});
