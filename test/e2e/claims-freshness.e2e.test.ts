import { adminApi, http, recordResponses, uniqueName } from "./support/http.js";
import { targets } from "./support/targets.js";
import type { TestServer } from "./support/embedded-server.js";
import { expectResponsesDocumented } from "./support/openapi-check.js";

const recorded = recordResponses();
const PW = "Fresh-Pass-1";

// The directory reuses a user's resolved claims (services/directory/src/domain/resolved-claims-cache.ts).
// Every Admin API write to what they are read from must show in the very next userinfo answer for
// the same access token, and in the next refreshed token, with no wait: the user's profile and
// attributes, realm and client roles (direct, through a group and its parent), group membership and
// the group tree, a role's deletion, and the user's being disabled.
describe.each(targets())("claims read right after a write to the user's data ($mode)", (target) => {
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;
  let realm: string;
  let secret: string;
  let userId: string;
  let access: string;
  let refresh: string;
  const admin = () => `/admin/realms/${realm}`;
  const oidc = () => `${server.url}/realms/${realm}/protocol/openid-connect`;

  async function userinfo(): Promise<{ status: number; body: Record<string, unknown> }> {
    const res = await http("GET", `${oidc()}/userinfo`, { headers: { authorization: `Bearer ${access}` } });
    return { status: res.status, body: res.body as Record<string, unknown> };
  }

  /** The claims this test's mappers put in userinfo, with the built-in profile ones it changes. */
  async function claims(): Promise<Record<string, unknown>> {
    // Twice: the second answer comes from the cache the first one filled.
    await userinfo();
    const { status, body } = await userinfo();
    expect(status).toBe(200);
    return { given_name: body.given_name, dept: body.dept, roles: body.roles, groups: body.groups, app_roles: body.app_roles };
  }

  async function refreshedAccessClaims(): Promise<Record<string, unknown>> {
    const res = await http("POST", `${oidc()}/token`, { form: { grant_type: "refresh_token", refresh_token: refresh, client_id: "app", client_secret: secret } });
    expect(res.status).toBe(200);
    refresh = res.body.refresh_token;
    return JSON.parse(Buffer.from(String(res.body.access_token).split(".")[1]!, "base64url").toString()) as Record<string, unknown>;
  }

  beforeAll(async () => {
    server = await target.start("claims-freshness");
    api = adminApi(server.url, server.apiKey);
    realm = uniqueName("fresh");
    expect((await api.post("/admin/realms", { name: realm })).status).toBe(201);
    const app = await api.post(`${admin()}/clients`, { clientId: "app", grantTypes: ["password", "refresh_token"] });
    expect(app.status).toBe(201);
    secret = app.body.secret;
    expect((await api.post(`${admin()}/clients/app/roles`, { name: "editor" })).status).toBe(201);
    const scope = await api.post(`${admin()}/client-scopes`, { name: "fresh" });
    expect(scope.status).toBe(201);
    const mapper = (name: string, mapperType: string, config: Record<string, string>) =>
      api.post(`${admin()}/client-scopes/${scope.body.id}/protocol-mappers`, { name, mapperType, config: { "userinfo.token.claim": "true", ...config } });
    for (const res of await Promise.all([
      mapper("dept", "oidc-usermodel-attribute-mapper", { "user.attribute": "dept", "claim.name": "dept" }),
      mapper("roles", "oidc-usermodel-realm-role-mapper", { "claim.name": "roles", multivalued: "true" }),
      mapper("app roles", "oidc-usermodel-client-role-mapper", { "claim.name": "app_roles", multivalued: "true", "usermodel.clientRoleMapping.clientId": "app" }),
      mapper("groups", "oidc-group-membership-mapper", { "claim.name": "groups", "full.path": "true" }),
    ])) expect(res.status).toBe(201);
    expect((await api.post(`${admin()}/clients/app/default-client-scopes`, { clientScopeId: scope.body.id })).status).toBe(200);
    const user = await api.post(`${admin()}/users`, { username: "ines", email: "ines@example.com", firstName: "Ines", lastName: "Duarte", password: PW });
    expect(user.status).toBe(201);
    userId = user.body.id;
    const tokens = await http("POST", `${oidc()}/token`, { form: { grant_type: "password", username: "ines", password: PW, scope: "openid profile", client_id: "app", client_secret: secret } });
    expect(tokens.status).toBe(200);
    access = tokens.body.access_token;
    refresh = tokens.body.refresh_token;
  }, 90_000);

  afterAll(async () => {
    await server?.stop();
    expectResponsesDocumented(recorded);
  });

  it("shows a profile or attribute change in the next answer", async () => {
    expect(await claims()).toEqual({ given_name: "Ines", dept: undefined, roles: ["offline_access"], groups: [], app_roles: undefined });
    expect((await api.put(`${admin()}/users/${userId}`, { firstName: "Inês", attributes: { dept: ["ops"] } })).status).toBe(200);
    expect(await claims()).toMatchObject({ given_name: "Inês", dept: "ops" });
  });

  it("shows roles granted directly, through a group and through its parent, and a client role", async () => {
    expect((await api.post(`${admin()}/roles`, { name: "auditor" })).status).toBe(201);
    expect((await api.post(`${admin()}/roles`, { name: "builder" })).status).toBe(201);
    expect((await api.post(`${admin()}/users/${userId}/role-mappings/realm`, { roleNames: ["auditor"] })).status).toBe(200);
    expect((await claims()).roles).toEqual(["auditor", "offline_access"]);
    expect((await api.post(`${admin()}/users/${userId}/role-mappings/clients/app`, { roleNames: ["editor"] })).status).toBe(200);
    expect((await claims()).app_roles).toEqual(["editor"]);

    const eng = await api.post(`${admin()}/groups`, { name: "eng" });
    const web = await api.post(`${admin()}/groups`, { name: "web", parentId: eng.body.id });
    expect([eng.status, web.status]).toEqual([201, 201]);
    expect((await api.put(`${admin()}/users/${userId}/groups/${web.body.id}`)).status).toBe(200);
    expect((await claims()).groups).toEqual(["/eng/web"]);
    expect((await api.post(`${admin()}/groups/${eng.body.id}/role-mappings`, { roleNames: ["builder"] })).status).toBe(200);
    expect((await claims()).roles).toEqual(["auditor", "builder", "offline_access"]);
    expect((await refreshedAccessClaims()).realm_access).toEqual({ roles: ["auditor", "builder", "offline_access"] });

    // The group tree and the role set change under the user, not the user's own records.
    expect((await api.put(`${admin()}/groups/${eng.body.id}`, { name: "core" })).status).toBe(200);
    expect((await claims()).groups).toEqual(["/core/web"]);
    expect((await api.del(`${admin()}/roles/auditor`)).status).toBe(204);
    expect((await claims()).roles).toEqual(["builder", "offline_access"]);
    expect((await api.del(`${admin()}/users/${userId}/groups/${web.body.id}`)).status).toBe(200);
    expect(await claims()).toMatchObject({ roles: ["offline_access"], groups: [] });
    expect((await refreshedAccessClaims()).realm_access).toEqual({ roles: ["offline_access"] });
  });

  it("refuses the token of a user disabled a moment ago", async () => {
    expect((await userinfo()).status).toBe(200);
    expect((await api.put(`${admin()}/users/${userId}`, { enabled: false })).status).toBe(200);
    const after = await userinfo();
    expect(after.status).toBe(401);
    expect(after.body).toMatchObject({ error: "invalid_token" });
  });
});
