import { decodeJwt } from "jose";
import { eventually, targets } from "./support/targets.js";
import { BrokeringWorld, PASSWORD, UPSTREAM_SECRET } from "./support/brokering-world.js";
import { BrowserSession } from "./support/browser-session.js";
import { uniqueName } from "./support/http.js";
import { exportSchemaProblems } from "./support/realm-export-schema.js";

/**
 * Keycloak's identity provider mappers end to end: the Admin API, then brokered logins through
 * oidc-provider (the upstream, whose accounts carry `department` and `groups` claims) that
 * create the user with the mappers' username, attributes, roles and group, and later logins
 * where FORCE mappers follow the changed claims and IMPORT ones leave the user as it was.
 */
for (const target of targets()) describe(`identity provider mappers (${target.mode})`, () => {
  const w = new BrokeringWorld(target, "broker-mappers");
  const { redeem } = w.rp.calls();
  const mappers = () => `${w.idps()}/up/mappers`;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    await w.setUp();
    const r = `/admin/realms/${w.realm}`;
    for (const name of ["member", "admin", "auditor"]) expect((await w.api.post(`${r}/roles`, { name })).status).toBe(201);
    expect((await w.api.post(`${r}/clients`, { clientId: "app", clientType: "CONFIDENTIAL", redirectUris: ["https://app.test/cb"] })).status).toBe(201);
    expect((await w.api.post(`${r}/clients/app/roles`, { name: "viewer" })).status).toBe(201);
    expect((await w.api.post(`${r}/groups`, { name: "staff" })).status).toBe(201);
  }, 90_000);
  afterAll(() => w.tearDown());

  it("creates, lists, reads, replaces and deletes mappers, and lists the types", async () => {
    const body = { name: "tier", identityProviderMapper: "hardcoded-attribute-idp-mapper", config: { attribute: "tier", "attribute.value": "silver" } };
    const created = await w.api.post(mappers(), body);
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), ...body, identityProviderAlias: "up", config: { ...body.config, syncMode: "INHERIT" } });
    ids.tier = created.body.id;
    expect((await w.api.get(`${mappers()}/${ids.tier}`)).body).toEqual(created.body);
    const put = await w.api.put(`${mappers()}/${ids.tier}`, { ...created.body, config: { attribute: "tier", "attribute.value": "gold", syncMode: "IMPORT" } });
    expect([put.status, put.body.config]).toEqual([200, { attribute: "tier", "attribute.value": "gold", syncMode: "IMPORT" }]);
    const temp = await w.api.post(mappers(), { name: "temp", identityProviderMapper: "oidc-hardcoded-role-idp-mapper", config: { role: "member" } });
    expect((await w.api.get(mappers())).body.map((m: { name: string }) => m.name)).toEqual(["tier", "temp"]);
    expect((await w.api.del(`${mappers()}/${temp.body.id}`)).status).toBe(204);
    expect((await w.api.get(`${mappers()}/${temp.body.id}`)).status).toBe(404);
    const types = await w.api.get(`${w.idps()}/up/mapper-types`);
    expect(types.status).toBe(200);
    expect(types.body.map((t: { id: string }) => t.id)).toEqual([
      "oidc-hardcoded-role-idp-mapper", "hardcoded-attribute-idp-mapper", "oidc-hardcoded-group-idp-mapper",
      "oidc-user-attribute-idp-mapper", "oidc-role-idp-mapper", "oidc-username-idp-mapper",
    ]);
    expect(types.body.find((t: { id: string }) => t.id === "oidc-role-idp-mapper").properties.map((p: { name: string; required: boolean }) => [p.name, p.required]))
      .toEqual([["claim", true], ["claim.value", false], ["role", true]]);
    const events = await eventually(
      () => w.api.get(`/admin/realms/${w.realm}/admin-events?resourceTypes=IDENTITY_PROVIDER_MAPPER`),
      (res) => Array.isArray(res.body) && res.body.filter((e: { resourceType: string }) => e.resourceType === "IDENTITY_PROVIDER_MAPPER").length >= 4,
    );
    const at = `realms/${w.realm}/identity-providers/up/mappers`;
    expect(events.body.filter((e: { resourceType: string }) => e.resourceType === "IDENTITY_PROVIDER_MAPPER").map((e: { operationType: string; resourcePath: string }) => [e.operationType, e.resourcePath]))
      .toEqual([["DELETE", `${at}/${temp.body.id}`], ["CREATE", `${at}/${temp.body.id}`], ["UPDATE", `${at}/${ids.tier}`], ["CREATE", `${at}/${ids.tier}`]]);
  });

  it("answers 400, 404 and 409 with the gateway's error body", async () => {
    const bad = await w.api.post(mappers(), { name: "x", identityProviderMapper: "oidc-hardcoded-role-idp-mapper", config: {} });
    expect([bad.status, bad.body]).toEqual([400, { error: "invalid_request", message: "config.role is required for oidc-hardcoded-role-idp-mapper", field: "config.role" }]);
    const mode = await w.api.post(mappers(), { name: "x", identityProviderMapper: "oidc-hardcoded-role-idp-mapper", config: { role: "member", syncMode: "ALWAYS" } });
    expect([mode.status, mode.body]).toEqual([400, { error: "invalid_request", message: "config.syncMode must be one of INHERIT, IMPORT, LEGACY, FORCE", field: "config.syncMode" }]);
    const type = await w.api.post(mappers(), { name: "x", identityProviderMapper: "saml-role-idp-mapper" });
    expect([type.status, type.body.field]).toEqual([400, "identityProviderMapper"]);
    const shape = await w.api.post(mappers(), { name: "x", identityProviderMapper: "oidc-hardcoded-role-idp-mapper", config: { role: 5 } });
    expect([shape.status, shape.body.field]).toEqual([400, "config"]);
    const dup = await w.api.post(mappers(), { name: "tier", identityProviderMapper: "oidc-hardcoded-role-idp-mapper", config: { role: "member" } });
    expect([dup.status, dup.body]).toEqual([409, { error: "conflict", message: 'mapper with name "tier" already exists', field: "name" }]);
    const noIdp = await w.api.get(`${w.idps()}/nope/mappers`);
    expect([noIdp.status, noIdp.body]).toEqual([404, { error: "identity_provider_not_found", message: 'identity provider "nope" not found' }]);
    expect((await w.api.get(`${mappers()}/00000000-0000-4000-8000-000000000000`)).status).toBe(404);
  });

  it("shapes the user a first login creates, and FORCE mappers follow the claims at the next login while IMPORT ones do not", async () => {
    expect((await w.api.del(`${mappers()}/${ids.tier}`)).status).toBe(204);
    const add = async (name: string, identityProviderMapper: string, config: Record<string, string>) =>
      expect((await w.api.post(mappers(), { name, identityProviderMapper, config })).status).toBe(201);
    await add("username", "oidc-username-idp-mapper", { template: "${CLAIM.email | localpart | lowercase}.${ALIAS}" });
    await add("dept", "oidc-user-attribute-idp-mapper", { claim: "department", "user.attribute": "department", syncMode: "FORCE" });
    await add("dept-at-signup", "oidc-user-attribute-idp-mapper", { claim: "department", "user.attribute": "signupDepartment", syncMode: "IMPORT" });
    await add("member", "oidc-hardcoded-role-idp-mapper", { role: "member" });
    await add("viewer", "oidc-hardcoded-role-idp-mapper", { role: "app.viewer" });
    await add("staff", "oidc-hardcoded-group-idp-mapper", { group: "/staff" });
    await add("tier", "hardcoded-attribute-idp-mapper", { attribute: "tier", "attribute.value": "gold" });
    await add("admins", "oidc-role-idp-mapper", { claim: "groups", "claim.value": "admins", role: "admin", syncMode: "FORCE" });
    await add("auditors", "oidc-role-idp-mapper", { claim: "groups", "claim.value": "admins", role: "auditor", syncMode: "IMPORT" });

    w.op.accounts.set("u-ann", { sub: "u-ann", preferred_username: "annie", email: "Ann.Lee@Corp.test", email_verified: true, department: "R&D", groups: ["admins", "users"] });
    const first = await w.loginAs("u-ann");
    const tokens = await redeem(first.config, first.s, first.back);
    const user = await w.userByName("ann.lee.up");
    expect(user).toMatchObject({ username: "ann.lee.up", attributes: { department: ["R&D"], signupDepartment: ["R&D"], tier: ["gold"] } });
    const realmRoles = async () => ((await w.api.get(`/admin/realms/${w.realm}/users/${user!.id}/role-mappings/realm`)).body as Array<{ name: string }>).map((r) => r.name).sort();
    const granted = await realmRoles();
    expect(granted).toEqual(expect.arrayContaining(["admin", "auditor", "member"]));
    expect(((await w.api.get(`/admin/realms/${w.realm}/users/${user!.id}/role-mappings/clients/app`)).body as Array<{ name: string }>).map((r) => r.name)).toEqual(["viewer"]);
    expect(((await w.api.get(`/admin/realms/${w.realm}/users/${user!.id}/groups`)).body as Array<{ path: string }>).map((g) => g.path)).toEqual(["/staff"]);
    const access = decodeJwt(tokens.access_token) as { sub: string; realm_access: { roles: string[] } };
    expect(access.sub).toBe(user!.id);
    expect(access.realm_access.roles).toEqual(expect.arrayContaining(["admin", "auditor", "member"]));

    // The upstream account changes: FORCE follows, IMPORT keeps what the first login wrote.
    w.op.accounts.set("u-ann", { sub: "u-ann", preferred_username: "annie", email: "Ann.Lee@Corp.test", email_verified: true, department: "Sales", groups: ["users"] });
    const second = await w.loginAs("u-ann");
    const again = decodeJwt((await redeem(second.config, second.s, second.back)).access_token) as { sub: string; realm_access: { roles: string[] } };
    expect(again.sub).toBe(user!.id);
    expect((await w.api.get(`/admin/realms/${w.realm}/users/${user!.id}`)).body.attributes).toEqual({ department: ["Sales"], signupDepartment: ["R&D"], tier: ["gold"] });
    expect(await realmRoles()).toEqual(granted.filter((r) => r !== "admin"));
    expect(again.realm_access.roles).toEqual(expect.arrayContaining(["auditor", "member"]));
    expect(again.realm_access.roles).not.toContain("admin");
  });

  it("applies the mappers when a first login is linked to a local account by its password, namespaced claims included", async () => {
    const bob = await w.api.post(`/admin/realms/${w.realm}/users`, { username: "bob", email: "bob@corp.test", password: PASSWORD });
    expect(bob.status).toBe(201);
    // A claim name with dots, escaped as Keycloak's claim mappers take it.
    expect((await w.api.post(mappers(), { name: "tier-claim", identityProviderMapper: "oidc-user-attribute-idp-mapper",
      config: { claim: "https://corp\\.test/tier", "user.attribute": "corpTier", syncMode: "FORCE" } })).status).toBe(201);
    w.op.accounts.set("u-bob", { sub: "u-bob", preferred_username: "bob.up", email: "bob@corp.test", email_verified: true, "https://corp.test/tier": "gold", groups: ["admins"] });
    const { b, config, s, back } = await w.loginAs("u-bob");
    expect(back.status).toBe(200);
    expect(back.text).toContain("<strong>bob</strong>");
    const linked = await b.submit(back, { password: PASSWORD });
    expect((await redeem(config, s, linked)).claims()!.sub).toBe(bob.body.id);
    const user = (await w.api.get(`/admin/realms/${w.realm}/users/${bob.body.id}`)).body;
    // The FORCE mappers ran; the IMPORT ones (hardcoded role, group, tier) did not: this login created no user.
    expect(user.attributes).toEqual({ corpTier: ["gold"] });
    const roles = ((await w.api.get(`/admin/realms/${w.realm}/users/${bob.body.id}/role-mappings/realm`)).body as Array<{ name: string }>).map((r) => r.name);
    expect([roles.includes("admin"), roles.includes("member"), roles.includes("auditor")]).toEqual([true, false, false]);
  });

  it("hands GitHub's user object to the mappers", async () => {
    expect((await w.api.post(w.idps(), {
      alias: "gh", providerType: "github", clientId: "tessera", clientSecret: UPSTREAM_SECRET,
      authorizationUrl: `${w.standIn.url}/login/oauth/authorize`, tokenUrl: `${w.standIn.url}/login/oauth/access_token`, userinfoUrl: `${w.standIn.url}/user`,
    })).status).toBe(201);
    const gh = `${w.idps()}/gh/mappers`;
    expect((await w.api.post(gh, { name: "username", identityProviderMapper: "oidc-username-idp-mapper", config: { template: "${ALIAS}-${CLAIM.login | uppercase}" } })).status).toBe(201);
    expect((await w.api.post(gh, { name: "company", identityProviderMapper: "oidc-user-attribute-idp-mapper", config: { claim: "company", "user.attribute": "company" } })).status).toBe(201);
    w.standIn.githubUser = { ...w.standIn.githubUser, company: "Acme" };
    const b = new BrowserSession(w.server.url);
    const { config, s, page } = await w.loginPage(b);
    const back = await w.viaButton(b, page, "gh");
    const sub = (await redeem(config, s, back)).claims()!.sub;
    expect(await w.userByName("gh-octo-cat")).toMatchObject({ id: sub, username: "gh-octo-cat", attributes: { company: ["Acme"] } });
  });

  it("deletes a provider's mappers with it", async () => {
    const idp = { alias: "gone", providerType: "oidc", clientId: "c", clientSecret: "s", authorizationUrl: `${w.op.url}/auth`, tokenUrl: `${w.op.url}/token`, issuer: w.op.url };
    expect((await w.api.post(w.idps(), idp)).status).toBe(201);
    expect((await w.api.post(`${w.idps()}/gone/mappers`, { name: "m", identityProviderMapper: "oidc-hardcoded-role-idp-mapper", config: { role: "member" } })).status).toBe(201);
    expect((await w.api.del(`${w.idps()}/gone`)).status).toBe(200);
    expect((await w.api.post(w.idps(), idp)).status).toBe(201);
    expect((await w.api.get(`${w.idps()}/gone/mappers`)).body).toEqual([]);
  });
  it("carries the mappers through a realm export and import, ids kept, and refuses a document's bad mapper", async () => {
    const source = uniqueName("mapx");
    expect((await w.api.post("/admin/realms", { name: source })).status).toBe(201);
    const idp = { alias: "corp", providerType: "oidc", clientId: "c", clientSecret: "s", authorizationUrl: "https://idp.example.test/a", tokenUrl: "https://idp.example.test/t", issuer: "https://idp.example.test" };
    expect((await w.api.post(`/admin/realms/${source}/identity-providers`, idp)).status).toBe(201);
    const at = `/admin/realms/${source}/identity-providers/corp/mappers`;
    const role = await w.api.post(at, { name: "role", identityProviderMapper: "oidc-role-idp-mapper", config: { claim: "groups", "claim.value": "admins", role: "admin", syncMode: "FORCE" } });
    const user = await w.api.post(at, { name: "user", identityProviderMapper: "oidc-username-idp-mapper", config: { template: "${CLAIM.email | lowercase}" } });
    const exported = await w.api.get(`/admin/realms/${source}/export?includeSecrets=true`);
    expect(exported.status).toBe(200);
    expect(exportSchemaProblems(exported.body)).toEqual([]);
    expect(exported.body.identityProviderMappers).toEqual([role.body, user.body]);

    const doc = exported.body;
    doc.realm.name = `${source}-copy`;
    const bad = structuredClone(doc);
    bad.identityProviderMappers.push({ ...user.body, id: "6b0c4c53-2a39-4d7e-9c55-0d4f4f0e3a11", name: "x", identityProviderAlias: "nope" },
      { ...user.body, id: "6b0c4c53-2a39-4d7e-9c55-0d4f4f0e3a12", identityProviderMapper: "oidc-advanced-role-idp-mapper" });
    expect((await w.api.del(`/admin/realms/${source}`)).status).toBe(200);
    const refused = await w.api.post("/admin/realms/import", bad);
    expect(refused.status).toBe(400);
    expect(refused.body.problems).toEqual([
      { path: "$.identityProviderMappers[2].identityProviderAlias", message: 'no identity provider "nope" in identityProviders' },
      { path: "$.identityProviderMappers[3].identityProviderMapper", message: expect.stringMatching(/^unknown mapper type "oidc-advanced-role-idp-mapper"/) },
      { path: "$.identityProviderMappers[3].name", message: 'name "user" is also used at $.identityProviderMappers[1]' },
    ]);
    const imported = await w.api.post("/admin/realms/import", doc);
    expect([imported.status, imported.body.importReport]).toEqual([201, []]);
    expect((await w.api.get(`/admin/realms/${source}-copy/identity-providers/corp/mappers`)).body).toEqual([role.body, user.body]);
  });

  it("converts a Keycloak realm's identityProviderMappers of the supported types and reports the others with their path", async () => {
    const realm = uniqueName("kcmap");
    const kc = {
      realm, enabled: true,
      identityProviders: [{ alias: "kc-up", providerId: "oidc", enabled: true, config: { clientId: "c", clientSecret: "s", authorizationUrl: "https://idp.example.test/a", tokenUrl: "https://idp.example.test/t", issuer: "https://idp.example.test", syncMode: "IMPORT" } }],
      identityProviderMappers: [
        { id: "0d8f9a4e-55c1-4b43-9a0e-3b7c1c1f2a01", name: "dept", identityProviderAlias: "kc-up", identityProviderMapper: "oidc-user-attribute-idp-mapper", config: { syncMode: "FORCE", claim: "department", "user.attribute": "department" } },
        { id: "0d8f9a4e-55c1-4b43-9a0e-3b7c1c1f2a02", name: "member", identityProviderAlias: "kc-up", identityProviderMapper: "oidc-hardcoded-role-idp-mapper", config: { role: "member", "are.claim.values.regex": "false" } },
        { id: "0d8f9a4e-55c1-4b43-9a0e-3b7c1c1f2a03", name: "adv", identityProviderAlias: "kc-up", identityProviderMapper: "oidc-advanced-role-idp-mapper", config: { role: "x" } },
        { id: "0d8f9a4e-55c1-4b43-9a0e-3b7c1c1f2a04", name: "saml", identityProviderAlias: "saml-up", identityProviderMapper: "oidc-hardcoded-role-idp-mapper", config: { role: "x" } },
      ],
    };
    const res = await w.api.post("/admin/realms/import?format=keycloak", kc);
    expect(res.status).toBe(201);
    expect((res.body.importReport as Array<{ path: string }>).filter((r) => r.path.startsWith("$.identityProviderMappers"))).toEqual([
      { path: '$.identityProviderMappers[1].config["are.claim.values.regex"]', message: 'mapper setting "are.claim.values.regex" has no equivalent' },
      { path: "$.identityProviderMappers[2]", message: 'identity provider mapper "adv" (oidc-advanced-role-idp-mapper) has no equivalent' },
      { path: "$.identityProviderMappers[3]", message: 'identity provider mapper "saml" belongs to "saml-up", which is not carried over' },
    ]);
    expect((await w.api.get(`/admin/realms/${realm}/identity-providers/kc-up/mappers`)).body).toEqual([
      { id: "0d8f9a4e-55c1-4b43-9a0e-3b7c1c1f2a01", name: "dept", identityProviderAlias: "kc-up", identityProviderMapper: "oidc-user-attribute-idp-mapper", config: { syncMode: "FORCE", claim: "department", "user.attribute": "department" } },
      { id: "0d8f9a4e-55c1-4b43-9a0e-3b7c1c1f2a02", name: "member", identityProviderAlias: "kc-up", identityProviderMapper: "oidc-hardcoded-role-idp-mapper", config: { role: "member", syncMode: "INHERIT" } },
    ]);
  });
});
