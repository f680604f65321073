import { adminApi, uniqueName } from "./support/http.js";
import { eventually, targets } from "./support/targets.js";
import type { TestServer } from "./support/embedded-server.js";
import { recordResponses } from "./support/http.js";
import { expectResponsesDocumented } from "./support/openapi-check.js";

// Every response this file receives is checked against the OpenAPI document at its end.
const recorded = recordResponses();

/**
 * Identity providers in the Admin API (spec 2.9, 4.10; DESIGN 7 methods): both body shapes, the
 * presets, the secret never returned, URLs judged at save time (SSRF), 400s naming the field, 409.
 * The embedded server runs with TESSERA_OUTBOUND_ALLOW_LOOPBACK unset (off), the cluster with it on.
 */
for (const target of targets()) describe(`identity provider admin (${target.mode})`, () => {
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;
  let realm: string;
  const idps = () => `/admin/realms/${realm}/identity-providers`;
  const flat = (alias: string, extra: Record<string, unknown> = {}) => ({
    alias, providerType: "oidc", clientId: "tessera", clientSecret: "s3cret-value",
    authorizationUrl: "https://idp.example.com/authorize", tokenUrl: "https://idp.example.com/token",
    issuer: "https://idp.example.com", ...extra,
  });

  beforeAll(async () => {
    server = await target.start("idp-admin");
    api = adminApi(server.url, server.apiKey);
    realm = uniqueName("idp-admin");
    expect((await api.post("/admin/realms", { name: realm, adminEventsEnabled: true })).status).toBe(201);
  }, 90_000);
  afterAll(async () => server?.stop());

  it("creates from the flat fields and reads back without the secret", async () => {
    const created = await api.post(idps(), flat("corp", { displayName: "Corp SSO", trustEmail: true }));
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      alias: "corp", displayName: "Corp SSO", providerType: "oidc", enabled: true, clientId: "tessera",
      authorizationUrl: "https://idp.example.com/authorize", tokenUrl: "https://idp.example.com/token",
      issuer: "https://idp.example.com", defaultScopes: "openid profile email", trustEmail: true, syncUserProfile: false, loginHint: false,
      clientSecretSet: true, createdAt: expect.any(String), updatedAt: expect.any(String),
    });
    expect(created.text).not.toContain("s3cret-value");
    const got = await api.get(`${idps()}/corp`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(created.body);
    expect((await api.post(idps(), flat("corp"))).status).toBe(409);
  });

  it("creates from the migration shape (providerId + config) and reads back flat", async () => {
    const res = await api.post(idps(), {
      alias: "kc", displayName: "From Keycloak", enabled: false, providerId: "keycloak-oidc",
      config: {
        clientId: "kc-client", clientSecret: "kc-secret", issuer: "https://kc.example.com/realms/x",
        authorizationUrl: "https://kc.example.com/auth", tokenUrl: "https://kc.example.com/token", useJwksUrl: "true",
      },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      alias: "kc", displayName: "From Keycloak", enabled: false, providerType: "oidc", clientId: "kc-client",
      issuer: "https://kc.example.com/realms/x", authorizationUrl: "https://kc.example.com/auth", tokenUrl: "https://kc.example.com/token",
    });
    expect(res.body.clientSecret).toBeUndefined();
    const bad = await api.post(idps(), { alias: "kc2", providerId: "oidc", config: { clientId: "x", colour: "red" } });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: "unknown_field", message: "unknown field: config.colour", field: "config.colour" });
  });

  it("fills a preset's endpoints (GitHub, Google)", async () => {
    const gh = await api.post(idps(), { alias: "github", providerType: "github", clientId: "gh-id", clientSecret: "gh-secret" });
    expect(gh.status).toBe(201);
    expect(gh.body).toMatchObject({
      displayName: "GitHub", authorizationUrl: "https://github.com/login/oauth/authorize",
      tokenUrl: "https://github.com/login/oauth/access_token", userinfoUrl: "https://api.github.com/user", defaultScopes: "read:user user:email",
    });
    const google = await api.post(idps(), { alias: "google", providerType: "google", clientId: "g-id", clientSecret: "g-secret" });
    expect(google.status).toBe(201);
    expect(google.body).toMatchObject({ issuer: "https://accounts.google.com", jwksUrl: "https://www.googleapis.com/oauth2/v3/certs" });
  });

  it("answers 400 naming the field", async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [flat("t1", { providerType: "myspace" }), "providerType"],
      [flat("t2", { trustEmail: "yes" }), "trustEmail"],
      [{ ...flat("t3"), tokenUrl: undefined }, "tokenUrl"],
      [{ ...flat("t4"), clientSecret: undefined }, "clientSecret"],
      [flat("not a slug"), "alias"],
      [flat("t5", { issuer: undefined }), "jwksUrl"],
      [flat("t6", { secretColour: "x" }), "secretColour"],
    ];
    for (const [body, field] of cases) {
      const res = await api.post(idps(), JSON.parse(JSON.stringify(body)));
      expect([field, res.status, res.body.field]).toEqual([field, 400, field]);
    }
  });

  it("refuses URLs an outbound fetch may not reach, at save time", async () => {
    const cases: Array<[string, string]> = [
      ["tokenUrl", "https://10.0.0.8/token"],
      ["tokenUrl", "https://192.168.1.10/token"],
      ["jwksUrl", "http://169.254.169.254/latest/meta-data/"],
      ["jwksUrl", "https://169.254.169.254/keys"],
      ["userinfoUrl", "https://[fd00:ec2::254]/userinfo"],
      ["tokenUrl", "http://idp.example.com/token"],
      ["authorizationUrl", "javascript:alert(1)"],
    ];
    if (target.mode === "embedded") cases.push(["tokenUrl", "http://127.0.0.1:9/token"], ["issuer", "http://localhost:9"]);
    for (const [field, url] of cases) {
      const res = await api.post(idps(), flat(uniqueName("ssrf"), { [field]: url }));
      expect([url, res.status, res.body.field]).toEqual([url, 400, field]);
    }
    const put = await api.put(`${idps()}/corp`, { tokenUrl: "https://172.16.0.1/token" });
    expect([put.status, put.body.field]).toEqual([400, "tokenUrl"]);
  });

  it("updates partially, keeps the secret sealed, deletes with the provider and records admin events", async () => {
    const before = (await api.get(`${idps()}/corp`)).body;
    const put = await api.put(`${idps()}/corp`, { displayName: "Corporate", clientSecret: "rotated-secret", syncUserProfile: true });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ ...before, displayName: "Corporate", syncUserProfile: true, updatedAt: expect.any(String) });
    expect(put.text).not.toContain("rotated-secret");
    expect((await api.put(`${idps()}/corp`, { alias: "other" })).body.field).toBe("alias");
    expect((await api.put(`${idps()}/nope`, { displayName: "x" })).status).toBe(404);

    const list = await api.get(idps());
    expect(list.status).toBe(200);
    expect(list.body.map((p: { alias: string }) => p.alias)).toEqual(["corp", "kc", "github", "google"]);

    const del = await api.del(`${idps()}/corp`);
    expect(del.status).toBe(200);
    expect(del.body).toEqual(put.body);
    const gone = await api.get(`${idps()}/corp`);
    expect(gone.status).toBe(404);
    expect(gone.body.error).toBe("identity_provider_not_found");
    expect((await api.del(`${idps()}/corp`)).status).toBe(404);

    const events = await eventually(
      () => api.get(`/admin/realms/${realm}/admin-events?resourceType=IDENTITY_PROVIDER`),
      (res) => Array.isArray(res.body) && res.body.filter((e: { resourcePath: string }) => e.resourcePath.endsWith("/corp")).length === 3,
    );
    const corp = events.body.filter((e: { resourcePath: string }) => e.resourcePath === `realms/${realm}/identity-providers/corp`);
    expect(corp.map((e: { operationType: string }) => e.operationType).sort()).toEqual(["CREATE", "DELETE", "UPDATE"]);
    for (const e of corp) expect(e.representation).not.toMatch(/s3cret-value|rotated-secret|clientSecretSealed/);
    expect(JSON.parse(corp.find((e: { operationType: string }) => e.operationType === "UPDATE").representation)).toEqual(put.body);
  });

  it("answers 404 for an unknown realm and 405 for another method", async () => {
    expect((await api.get(`/admin/realms/${uniqueName("none")}/identity-providers`)).status).toBe(404);
    const res = await api.call("PATCH", idps(), {});
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST, GET, HEAD");
  });
});

describe("the responses of this file", () => {
  it("match the OpenAPI document (status, media type, body schema)", () => {
    expect(expectResponsesDocumented(recorded)).toBeGreaterThan(0);
  });
});
