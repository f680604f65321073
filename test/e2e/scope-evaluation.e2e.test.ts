import { adminApi, http, recordResponses, uniqueName } from "./support/http.js";
import { targets } from "./support/targets.js";
import type { TestServer } from "./support/embedded-server.js";
import { expectResponsesDocumented } from "./support/openapi-check.js";

const recorded = recordResponses();
const PW = "Evaluate-Pass-1";
const decode = (jwt: string) => JSON.parse(Buffer.from(jwt.split(".")[1]!, "base64url").toString()) as Record<string, unknown>;
/** The claims that differ between two tokens of the same grant: their times, ids and session. */
const VARYING = ["exp", "iat", "auth_time", "jti", "sid", "fid", "at_hash"];
const stable = (claims: Record<string, unknown>) => Object.fromEntries(Object.entries(claims).filter(([k]) => !VARYING.includes(k)));

// Keycloak's client scope evaluation: the example access token, ID token and userinfo for a user
// and a scope parameter hold what the token endpoint and userinfo give that user through the same
// client, but for the times, ids and session.
describe.each(targets())("client scope evaluation ($mode)", (target) => {
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;
  let realm: string;
  let secret: string;
  let userId: string;
  const evaluate = (kind: string, query: Record<string, string>, clientId = "app") =>
    api.get(`/admin/realms/${realm}/clients/${clientId}/evaluate-scopes/generate-example-${kind}?${new URLSearchParams(query)}`);

  beforeAll(async () => {
    server = await target.start("scope-evaluation");
    api = adminApi(server.url, server.apiKey);
    realm = uniqueName("evaluate");
    expect((await api.post("/admin/realms", { name: realm })).status).toBe(201);
    const app = await api.post(`/admin/realms/${realm}/clients`, { clientId: "app", grantTypes: ["password"] });
    expect(app.status).toBe(201);
    secret = app.body.secret;
    const scope = await api.post(`/admin/realms/${realm}/client-scopes`, { name: "org-data" });
    expect(scope.status).toBe(201);
    expect((await api.post(`/admin/realms/${realm}/client-scopes/${scope.body.id}/protocol-mappers`, {
      name: "dept", mapperType: "oidc-usermodel-attribute-mapper",
      config: { "user.attribute": "dept", "claim.name": "dept", "access.token.claim": "true", "id.token.claim": "true", "userinfo.token.claim": "true" },
    })).status).toBe(201);
    expect((await api.post(`/admin/realms/${realm}/clients/app/optional-client-scopes`, { clientScopeId: scope.body.id })).status).toBe(200);
    const user = await api.post(`/admin/realms/${realm}/users`, {
      username: "eva", email: "eva@example.com", firstName: "Eva", lastName: "Lund", emailVerified: true, password: PW, attributes: { dept: ["ops"] },
    });
    expect(user.status).toBe(201);
    userId = user.body.id;
  }, 90_000);

  afterAll(async () => {
    await server?.stop();
    expectResponsesDocumented(recorded);
  });

  it("builds the access token, ID token and userinfo the token endpoint gives, without a session", async () => {
    const tokens = await http("POST", `${server.url}/realms/${realm}/protocol/openid-connect/token`, {
      form: { grant_type: "password", username: "eva", password: PW, scope: "openid org-data", client_id: "app", client_secret: secret },
    });
    expect(tokens.status).toBe(200);
    const real = await http("GET", `${server.url}/realms/${realm}/protocol/openid-connect/userinfo`, { headers: { authorization: `Bearer ${tokens.body.access_token}` } });
    expect(real.status).toBe(200);
    const [access, id, userinfo] = await Promise.all(["access-token", "id-token", "userinfo"].map((kind) => evaluate(kind, { userId, scope: "org-data" })));
    expect([access!.status, id!.status, userinfo!.status]).toEqual([200, 200, 200]);

    expect(stable(access!.body)).toEqual(stable(decode(tokens.body.access_token)));
    expect(access!.body).toMatchObject({ sub: userId, azp: "app", typ: "Bearer", dept: "ops", iss: `${server.url}/realms/${realm}` });
    expect(access!.body.exp).toBe((access!.body.iat as number) + 300);
    expect(access!.body).not.toHaveProperty("sid");
    expect(stable(id!.body)).toEqual(stable(decode(tokens.body.id_token)));
    expect(id!.body).toMatchObject({ typ: "ID", aud: "app", dept: "ops", email: "eva@example.com", preferred_username: "eva" });
    expect(userinfo!.body).toEqual(real.body);
    expect(userinfo!.body).toMatchObject({ sub: userId, dept: "ops", name: "Eva Lund" });
  });

  it("leaves an optional scope's claims out when the scope parameter does not name it", async () => {
    const access = await evaluate("access-token", { userId });
    expect(access.status).toBe(200);
    expect(access.body.scope).toBe("openid acr basic email profile roles web-origins");
    expect(access.body).not.toHaveProperty("dept");
  });

  it("refuses a missing user, an unknown user or client, a scope the client lacks and a disabled user", async () => {
    const missing = await evaluate("access-token", { scope: "openid" });
    expect([missing.status, missing.body]).toEqual([400, { error: "invalid_request", message: "userId is required", field: "userId" }]);
    const ghost = "00000000-0000-4000-8000-000000000000";
    const unknownUser = await evaluate("id-token", { userId: ghost });
    expect([unknownUser.status, unknownUser.body]).toEqual([404, { error: "user_not_found", message: `user "${ghost}" not found` }]);
    const unknownClient = await evaluate("userinfo", { userId }, "nope");
    expect([unknownClient.status, unknownClient.body]).toEqual([404, { error: "client_not_found", message: 'client "nope" not found' }]);
    const scope = await evaluate("access-token", { userId, scope: "openid payroll" });
    expect([scope.status, scope.body]).toEqual([400, { error: "invalid_request", message: 'scope "payroll" is not allowed for this client', field: "scope" }]);
    const off = await api.post(`/admin/realms/${realm}/users`, { username: "off", enabled: false });
    expect(off.status).toBe(201);
    const disabled = await evaluate("access-token", { userId: off.body.id });
    expect([disabled.status, disabled.body]).toEqual([400, { error: "invalid_request", message: "the user is disabled", field: "userId" }]);
  });
});
