import * as oidc from "openid-client";
import { decodeJwt } from "jose";
import { adminApi, http, recordResponses, uniqueName } from "./support/http.js";
import { targets } from "./support/targets.js";
import type { TestServer } from "./support/embedded-server.js";
import { expectResponsesDocumented } from "./support/openapi-check.js";

const recorded = recordResponses();
const PW = "Switches-Pass-1";

// Per-mapper token switches (Keycloak's id.token.claim, access.token.claim, userinfo.token.claim,
// introspection.token.claim)
// and the profile scope's updated_at (OIDC Core 5.1), with openid-client as the relying party: it
// validates the ID token and fetches userinfo.
describe.each(targets())("mapper token switches and updated_at ($mode)", (target) => {
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;
  let realm: string;
  let secret: string;
  let userId: string;
  let scopeId: string;
  const issuer = () => `${server.url}/realms/${realm}`;
  const mappers = () => `/admin/realms/${realm}/client-scopes/${scopeId}/protocol-mappers`;
  const hardcoded = (claim: string, flags: Record<string, string>) =>
    ({ name: claim, mapperType: "oidc-hardcoded-claim-mapper", config: { "claim.name": claim, "claim.value": `${claim}-value`, ...flags } });

  /** A password login through openid-client: the validated ID token's claims, the access token's and userinfo. */
  async function signIn(scope = "openid") {
    const config = await oidc.discovery(new URL(issuer()), "app", secret, undefined, { execute: [oidc.allowInsecureRequests] });
    const tokens = await oidc.genericGrantRequest(config, "password", { username: "noor", password: PW, scope });
    const id = tokens.claims();
    const access = decodeJwt(tokens.access_token);
    const userinfo = await oidc.fetchUserInfo(config, tokens.access_token, id ? id.sub : oidc.skipSubjectCheck);
    return { id: id as Record<string, unknown> | undefined, access: access as Record<string, unknown>, userinfo: userinfo as Record<string, unknown> };
  }

  beforeAll(async () => {
    server = await target.start("claim-switches");
    api = adminApi(server.url, server.apiKey);
    realm = uniqueName("sw");
    expect((await api.post("/admin/realms", { name: realm })).status).toBe(201);
    const app = await api.post(`/admin/realms/${realm}/clients`, { clientId: "app", grantTypes: ["password", "refresh_token"] });
    expect(app.status).toBe(201);
    secret = app.body.secret;
    const scope = await api.post(`/admin/realms/${realm}/client-scopes`, { name: "switches" });
    scopeId = scope.body.id;
    for (const body of [
      hardcoded("no_id", { "id.token.claim": "false" }),
      hardcoded("no_access", { "access.token.claim": "false" }),
      hardcoded("no_userinfo", { "userinfo.token.claim": "false" }),
      hardcoded("id_only", { "id.token.claim": "true", "access.token.claim": "false", "userinfo.token.claim": "false" }),
      hardcoded("defaults", {}),
    ]) expect((await api.post(mappers(), body)).status).toBe(201);
    expect((await api.post(`/admin/realms/${realm}/clients/app/default-client-scopes`, { clientScopeId: scopeId })).status).toBe(200);
    const user = await api.post(`/admin/realms/${realm}/users`, { username: "noor", email: "noor@example.com", firstName: "Noor", lastName: "Haddad", password: PW });
    expect(user.status).toBe(201);
    userId = user.body.id;
  }, 90_000);
  afterAll(async () => {
    await server?.stop();
    expectResponsesDocumented(recorded);
  });

  it("puts each mapper's claim only in the tokens its switches allow", async () => {
    const { id, access, userinfo } = await signIn();
    const pick = (claims: Record<string, unknown>) => Object.keys(claims).filter((k) => k.endsWith("_value") || ["no_id", "no_access", "no_userinfo", "id_only", "defaults"].includes(k)).sort();
    expect(pick(id!)).toEqual(["defaults", "id_only", "no_access", "no_userinfo"]);
    expect(pick(access)).toEqual(["defaults", "no_id", "no_userinfo"]);
    expect(pick(userinfo)).toEqual(["defaults", "no_access", "no_id"]);
    expect([id!.no_access, access.no_id, userinfo.no_userinfo, userinfo.defaults]).toEqual(["no_access-value", "no_id-value", undefined, "defaults-value"]);
  });

  it("reports in introspection the claims of the mappers switched on for it, computed now, and the token's own claims", async () => {
    const added = await api.post(mappers(), hardcoded("hidden", { "introspection.token.claim": "false" }));
    expect(added.status).toBe(201);
    const login = await http("POST", `${issuer()}/protocol/openid-connect/token`, {
      form: { grant_type: "password", client_id: "app", client_secret: secret, username: "noor", password: PW, scope: "openid" },
    });
    expect(login.status).toBe(200);
    const access = decodeJwt(login.body.access_token) as Record<string, unknown>;
    const introspect = async () => {
      const res = await http("POST", `${issuer()}/protocol/openid-connect/token/introspect`, { form: { token: login.body.access_token, client_id: "app", client_secret: secret } });
      expect(res.status).toBe(200);
      return res.body as Record<string, unknown>;
    };
    const pick = (claims: Record<string, unknown>) => Object.keys(claims).filter((k) => ["hidden", "no_id", "no_access", "no_userinfo", "id_only", "defaults"].includes(k)).sort();
    expect(pick(access)).toEqual(["defaults", "hidden", "no_id", "no_userinfo"]);
    const seen = await introspect();
    // Switches left out were stored "true", introspection's among them: no_access and id_only are introspected.
    expect(pick(seen)).toEqual(["defaults", "id_only", "no_access", "no_id", "no_userinfo"]);
    expect([seen.no_access, seen.defaults]).toEqual(["no_access-value", "defaults-value"]);
    for (const name of ["iss", "sub", "aud", "exp", "iat", "jti", "azp", "typ", "scope", "sid", "realm_access", "preferred_username"]) {
      expect([name, seen[name]]).toEqual([name, access[name]]);
    }
    expect([seen.active, seen.client_id, seen.username, seen.token_type]).toEqual([true, "app", "noor", "Bearer"]);

    // The same token, once the switch is on: introspection computes the claims when asked. The
    // token service hears of the mapper change by its event, so the answer may lag it briefly.
    const path = `${mappers()}/${added.body.id}`;
    expect((await api.put(path, { config: { ...added.body.config, "introspection.token.claim": "true" } })).status).toBe(200);
    let after = await introspect();
    for (let i = 0; i < 100 && after.hidden === undefined; i++) {
      await new Promise((r) => setTimeout(r, 50));
      after = await introspect();
    }
    expect([after.hidden, after.active]).toEqual(["hidden-value", true]);
    expect((await api.del(path)).status).toBe(204);
  });

  it("stores Keycloak's defaults for the switches left out, access only for audience mappers", async () => {
    const list = (await api.get(`/admin/realms/${realm}/client-scopes/${scopeId}`)).body.protocolMappers as Array<{ name: string; config: Record<string, string> }>;
    expect(list.find((m) => m.name === "defaults")!.config).toEqual({
      "claim.name": "defaults", "claim.value": "defaults-value",
      "id.token.claim": "true", "access.token.claim": "true", "userinfo.token.claim": "true", "introspection.token.claim": "true",
    });
    expect(list.find((m) => m.name === "no_id")!.config).toMatchObject({ "id.token.claim": "false", "access.token.claim": "true", "userinfo.token.claim": "true" });
    const scope = (await api.post(`/admin/realms/${realm}/client-scopes`, { name: uniqueName("aud") })).body;
    const aud = await api.post(`/admin/realms/${realm}/client-scopes/${scope.id}/protocol-mappers`, {
      name: "aud", mapperType: "oidc-audience-mapper", config: { "included.custom.audience": "https://api.example.test" },
    });
    expect(aud.body.config).toEqual({
      "included.custom.audience": "https://api.example.test",
      "id.token.claim": "false", "access.token.claim": "true", "userinfo.token.claim": "false", "introspection.token.claim": "true",
    });
  });

  it("refuses a switch that is not \"true\" or \"false\", naming it", async () => {
    for (const flag of ["id.token.claim", "access.token.claim", "userinfo.token.claim", "introspection.token.claim"]) {
      const res = await api.post(mappers(), hardcoded(uniqueName("bad").replace(/-/g, "_"), { [flag]: "TRUE" }));
      expect([res.status, res.body]).toEqual([400, { error: "invalid_request", message: `config.${flag} must be "true" or "false"`, field: `config.${flag}` }]);
    }
  });

  it("keeps a realm's ID token to OIDC Core 5.4's claims when the profile mappers say so; updating a switch takes effect", async () => {
    const list = (await api.get(`/admin/realms/${realm}/client-scopes`)).body as Array<{ id: string; name: string; protocolMappers: Array<{ id: string; name: string; config: Record<string, string> }> }>;
    const profile = list.find((s) => s.name === "profile")!;
    const given = profile.protocolMappers.find((m) => m.name === "given name")!;
    const path = `/admin/realms/${realm}/client-scopes/${profile.id}/protocol-mappers/${given.id}`;
    expect((await api.put(path, { config: { ...given.config, "id.token.claim": "false" } })).status).toBe(200);
    const { id, access, userinfo } = await signIn();
    expect([id!.given_name, access.given_name, userinfo.given_name]).toEqual([undefined, "Noor", "Noor"]);
    expect(id!.family_name).toBe("Haddad");
    expect((await api.put(path, { config: { ...given.config, "id.token.claim": "true" } })).status).toBe(200);
    expect((await signIn()).id!.given_name).toBe("Noor");
  });

  it("gives updated_at in the profile scope: seconds of the user's last update, changed by an update", async () => {
    const first = await signIn();
    const created = first.id!.updated_at as number;
    expect(Number.isInteger(created)).toBe(true);
    expect(Math.abs(created - Date.now() / 1000)).toBeLessThan(120);
    expect([first.access.updated_at, first.userinfo.updated_at]).toEqual([created, created]);
    // Whole seconds: an update within the same second would not show.
    await new Promise((r) => setTimeout(r, 1100));
    const before = Math.floor(Date.now() / 1000);
    expect((await api.put(`/admin/realms/${realm}/users/${userId}`, { firstName: "Nour" })).status).toBe(200);
    const second = await signIn();
    expect(second.id!.updated_at).toBeGreaterThan(created);
    expect(second.id!.updated_at).toBeGreaterThanOrEqual(before);
    expect([second.id!.given_name, second.userinfo.updated_at]).toEqual(["Nour", second.id!.updated_at]);
  });

  it("leaves updated_at out where the profile scope was not granted", async () => {
    const login = await http("POST", `${issuer()}/protocol/openid-connect/token`, {
      form: { grant_type: "password", client_id: "app", client_secret: secret, username: "noor", password: PW, scope: "openid" },
    });
    expect(login.status).toBe(200);
    // A refresh narrowed to the email scope gets the profile claims of neither token.
    const narrowed = await http("POST", `${issuer()}/protocol/openid-connect/token`, {
      form: { grant_type: "refresh_token", client_id: "app", client_secret: secret, refresh_token: login.body.refresh_token, scope: "openid email" },
    });
    expect(narrowed.status).toBe(200);
    expect(narrowed.body.scope).toBe("openid email");
    const id = decodeJwt(narrowed.body.id_token);
    expect([id.updated_at, id.given_name, id.email]).toEqual([undefined, undefined, "noor@example.com"]);
    const info = await http("GET", `${issuer()}/protocol/openid-connect/userinfo`, { headers: { authorization: `Bearer ${narrowed.body.access_token}` } });
    expect(info.body).toEqual({ sub: userId, email: "noor@example.com", email_verified: false });
  });
});
