import { adminApi, uniqueName } from "./support/http.js";
import { targets } from "./support/targets.js";
import type { TestServer } from "./support/embedded-server.js";
import { exportSchemaProblems } from "./support/realm-export-schema.js";
import { describeTier } from "../support/tier.js";
import { addOu, addPerson, sharedLdap, withLdap } from "../support/slapd.js";

// Realm export and import of the broker's and the federation service's parts (spec 2.9, 2.10,
// 4.1; DESIGN 3 and 5): identity providers, users' links to them, LDAP providers, and their
// secrets only with includeSecrets. None of this needs a directory server: creating an LDAP
// provider does not connect; the slapd block below checks the carried credential binds.
const IDP_SECRET = "idp-secret-Zr4-transfer";
const BIND_SECRET = "bind-secret-Q9-transfer";
const IDP = {
  alias: "corp", displayName: "Corp SSO", providerType: "oidc", clientId: "tessera-app", clientSecret: IDP_SECRET,
  authorizationUrl: "https://idp.example.test/authorize", tokenUrl: "https://idp.example.test/token", issuer: "https://idp.example.test",
  trustEmail: true,
};
const LDAP = {
  name: "Corp LDAP", providerType: "ldap", connectionUrl: "ldap://ldap.example.test:389", bindDn: "cn=admin,dc=example,dc=test",
  bindCredential: BIND_SECRET, usersDn: "ou=people,dc=example,dc=test", priority: 3, syncMode: "READ_ONLY",
};
/** The IdP as the document holds it (no timestamps, no clientSecretSet). */
const IDP_DOC = {
  alias: "corp", displayName: "Corp SSO", providerType: "oidc", enabled: true, clientId: "tessera-app",
  authorizationUrl: "https://idp.example.test/authorize", tokenUrl: "https://idp.example.test/token", issuer: "https://idp.example.test",
  defaultScopes: "openid profile email", trustEmail: true, syncUserProfile: false, loginHint: false,
};
const LDAP_DOC = {
  name: "Corp LDAP", providerType: "ldap", enabled: true, priority: 3, connectionUrl: "ldap://ldap.example.test:389",
  bindDn: "cn=admin,dc=example,dc=test", usersDn: "ou=people,dc=example,dc=test", userObjectClass: "inetOrgPerson",
  usernameLdapAttr: "uid", uuidLdapAttr: "entryUUID", emailLdapAttr: "mail", firstNameLdapAttr: "givenName", lastNameLdapAttr: "sn",
  syncMode: "READ_ONLY", syncPeriod: 0, changedSyncPeriod: 0, importEnabled: true, connectionTimeout: 10, vanishedUsers: "DISABLE",
};
const LINK = { identityProvider: "corp", userId: "corp-sub-7", userName: "alice@corp" };

describe.each(targets())("realm export and import of identity providers and LDAP providers ($mode)", (target) => {
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;
  beforeAll(async () => {
    server = await target.start("realm-transfer-providers");
    api = adminApi(server.url, server.apiKey);
  }, 90_000);
  afterAll(async () => server?.stop());

  const ok = (res: { status: number; text: string }, status: number) => { if (res.status !== status) throw new Error(`${res.status} ${res.text}`); };

  async function sourceRealm(): Promise<{ realm: string; ldapId: string; idpBody: any; ldapBody: any }> {
    const realm = uniqueName("xferp");
    ok(await api.post("/admin/realms", { name: realm }), 201);
    const idp = await api.post(`/admin/realms/${realm}/identity-providers`, IDP);
    ok(idp, 201);
    const ldap = await api.post(`/admin/realms/${realm}/user-federation`, LDAP);
    ok(ldap, 201);
    ok(await api.post(`/admin/realms/${realm}/users`, { username: "alice", email: "alice@example.test" }), 201);
    return { realm, ldapId: ldap.body.id, idpBody: idp.body, ldapBody: ldap.body };
  }

  async function exportRealm(realm: string, query: string): Promise<{ body: any; text: string }> {
    const res = await api.get(`/admin/realms/${realm}/export${query}`);
    expect(res.status).toBe(200);
    expect(exportSchemaProblems(res.body)).toEqual([]);
    return res;
  }
  const withoutTimes = ({ createdAt: _c, updatedAt: _u, ...rest }: Record<string, unknown>) => rest;

  it("exports the providers as the Admin API shows them; their secrets only with includeSecrets, absent (not masked) without", async () => {
    const { realm, ldapId } = await sourceRealm();
    const bare = await exportRealm(realm, "?includeUsers=true");
    expect(bare.body.identityProviders).toEqual([{ id: expect.stringMatching(/^[0-9a-f-]{36}$/), ...IDP_DOC }]);
    expect(bare.body.userFederationProviders).toEqual([{ id: ldapId, ...LDAP_DOC }]);
    expect(bare.text).not.toContain(IDP_SECRET);
    expect(bare.text).not.toContain(BIND_SECRET);
    expect(bare.text).not.toContain("**********");
    expect(bare.body.users).toEqual([expect.objectContaining({ username: "alice", federatedIdentities: [] })]);

    const full = await exportRealm(realm, "?includeSecrets=true");
    expect(full.body.identityProviders).toEqual([{ id: bare.body.identityProviders[0].id, ...IDP_DOC, clientSecret: IDP_SECRET }]);
    expect(full.body.userFederationProviders).toEqual([{ id: ldapId, ...LDAP_DOC, bindCredential: BIND_SECRET }]);
  }, 60_000);

  it("imports them under a new name with the users' links, ids kept; the Admin API reads the same providers back", async () => {
    const { realm, ldapId, idpBody, ldapBody } = await sourceRealm();
    const doc = (await exportRealm(realm, "?includeUsers=true&includeSecrets=true")).body;
    doc.users[0].federatedIdentities = [LINK];
    const copy = `${realm}-copy`;
    doc.realm.name = copy;
    // While the source realm lives, its ids are its own.
    const taken = await api.post("/admin/realms/import", doc);
    expect(taken.status).toBe(400);
    expect(taken.body.problems).toEqual(expect.arrayContaining([
      { path: "$.identityProviders[0].id", message: `id "${doc.identityProviders[0].id}" belongs to realm "${realm}"` },
      { path: "$.userFederationProviders[0].id", message: `id "${ldapId}" belongs to realm "${realm}"` },
    ]));

    ok(await api.del(`/admin/realms/${realm}`), 200);
    const imported = await api.post("/admin/realms/import", doc);
    expect(imported.status).toBe(201);
    expect(imported.body.importReport).toEqual([]);

    const idps = await api.get(`/admin/realms/${copy}/identity-providers`);
    expect(idps.status).toBe(200);
    expect(idps.body.map(withoutTimes)).toEqual([withoutTimes(idpBody)]);
    expect(withoutTimes(idpBody)).toEqual({ ...IDP_DOC, clientSecretSet: true });
    const ldap = await api.get(`/admin/realms/${copy}/user-federation/${ldapId}`);
    expect(ldap.status).toBe(200);
    expect(withoutTimes(ldap.body)).toEqual(withoutTimes(ldapBody));
    expect(withoutTimes(ldap.body)).toEqual({ id: ldapId, ...LDAP_DOC });
    const links = await api.get(`/admin/realms/${copy}/users/${doc.users[0].id}/federated-identity`);
    expect(links.status).toBe(200);
    expect(links.body).toEqual([{ ...LINK, createdAt: expect.any(String) }]);

    // Exported again, the document is the one imported: secrets, links and ids included.
    const again = (await exportRealm(copy, "?includeUsers=true&includeSecrets=true")).body;
    expect(again.identityProviders).toEqual(doc.identityProviders);
    expect(again.userFederationProviders).toEqual(doc.userFederationProviders);
    expect(again.users).toEqual(doc.users);
  }, 60_000);

  it("imports a document without secrets: the providers are kept without them, each noted, and neither is usable until set", async () => {
    const { realm, ldapId } = await sourceRealm();
    const doc = (await exportRealm(realm, "")).body;
    const replaced = await api.post("/admin/realms/import?overwrite=true", doc);
    expect(replaced.status).toBe(201);
    expect(replaced.body.importReport).toEqual([
      { path: "$.identityProviders[0].clientSecret", message: `no client secret in the document (exported without includeSecrets): set it with PUT /admin/realms/${realm}/identity-providers/corp; until then login through it is refused` },
      { path: "$.userFederationProviders[0].bindCredential", message: `no bind credential in the document (exported without includeSecrets): set it with PUT /admin/realms/${realm}/user-federation/${ldapId}; until then the provider cannot bind, sync or log users in` },
    ]);
    const idp = await api.get(`/admin/realms/${realm}/identity-providers/corp`);
    expect(withoutTimes(idp.body)).toEqual({ ...IDP_DOC, clientSecretSet: false });
    const test = await api.post(`/admin/realms/${realm}/user-federation/${ldapId}/test-connection`);
    expect(test.status).toBe(400);
    expect(test.body).toEqual({ success: false, error: "invalid_bind_credentials", message: "the provider has no bind credential set" });
    const set = await api.put(`/admin/realms/${realm}/identity-providers/corp`, { clientSecret: "new-secret" });
    expect(set.status).toBe(200);
    expect(set.body.clientSecretSet).toBe(true);
  }, 60_000);

  it("validates both sections and the links first: a 400 lists every problem with its path, and nothing is written", async () => {
    const { realm } = await sourceRealm();
    const doc = (await exportRealm(realm, "?includeUsers=true")).body;
    doc.realm.name = `${realm}-bad`;
    ok(await api.del(`/admin/realms/${realm}`), 200);
    const second = { ...doc.identityProviders[0], id: "0b7c6a2e-1111-4222-8333-444455556666", providerType: "saml", tokenUrl: "http://idp.example.test/token" };
    doc.identityProviders.push(second);
    doc.userFederationProviders[0].connectionUrl = "http://ldap.example.test";
    doc.userFederationProviders.push({ ...doc.userFederationProviders[0], id: "1b7c6a2e-1111-4222-8333-444455556666", name: "corp ldap", connectionUrl: "ldap://ok.example.test", syncMode: "SOMETIMES" });
    doc.users[0].federatedIdentities = [{ identityProvider: "nowhere", userId: "x", userName: "x" }, LINK, { ...LINK, userName: "again" }];
    const res = await api.post("/admin/realms/import", doc);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("invalid_document");
    expect(res.body.problems).toEqual([
      { path: "$.identityProviders[1].providerType", message: "providerType must be one of oidc, google, github" },
      { path: "$.identityProviders[1].alias", message: 'alias "corp" is also used at $.identityProviders[0]' },
      { path: "$.users[0].federatedIdentities[0].identityProvider", message: 'no identity provider "nowhere" in identityProviders' },
      { path: "$.users[0].federatedIdentities[2].identityProvider", message: 'the user is linked to "corp" twice' },
      { path: "$.userFederationProviders[0].connectionUrl", message: "connectionUrl must be an ldap:// or ldaps:// URL" },
      { path: "$.userFederationProviders[1].syncMode", message: "syncMode must be IMPORT or READ_ONLY" },
      { path: "$.userFederationProviders[1].name", message: 'name "corp ldap" is also used at $.userFederationProviders[0]' },
    ]);
    expect((await api.get(`/admin/realms/${realm}-bad`)).status).toBe(404);
  }, 60_000);
});

// The carried bind credential against a real directory server (.ci/run's slapd).
describeTier("realm transfer of LDAP providers against slapd", ["TESSERA_TEST_LDAP_URL"], () => describe.each(targets())("$mode", (target) => {
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;
  beforeAll(async () => {
    server = await target.start("realm-transfer-ldap");
    api = adminApi(server.url, server.apiKey);
  }, 90_000);
  afterAll(async () => server?.stop());

  it("an LDAP provider imported with includeSecrets binds and syncs with the carried credential", async () => {
    const ldap = sharedLdap();
    const usersDn = await withLdap(ldap, async (c) => {
      const dn = await addOu(c, ldap.baseDn, `xfer-${Math.random().toString(36).slice(2, 8)}`);
      await addPerson(c, dn, { uid: "lena", mail: "lena@example.test", givenName: "Lena", sn: "Ldap", password: "Lena-Pass-123" });
      return dn;
    });
    const realm = uniqueName("xferl");
    expect((await api.post("/admin/realms", { name: realm })).status).toBe(201);
    const created = await api.post(`/admin/realms/${realm}/user-federation`, {
      name: "slapd", providerType: "ldap", connectionUrl: ldap.url, bindDn: ldap.bindDn, bindCredential: ldap.bindPassword, usersDn,
    });
    expect(created.status).toBe(201);
    const doc = (await api.get(`/admin/realms/${realm}/export?includeSecrets=true`)).body;
    expect(doc.userFederationProviders[0].bindCredential).toBe(ldap.bindPassword);
    expect((await api.del(`/admin/realms/${realm}`)).status).toBe(200);
    doc.realm.name = `${realm}-copy`;
    const imported = await api.post("/admin/realms/import", doc);
    expect(imported.status).toBe(201);
    expect(imported.body.importReport).toEqual([]);
    const base = `/admin/realms/${realm}-copy/user-federation/${created.body.id}`;
    const test = await api.post(`${base}/test-connection`);
    expect(test.status).toBe(200);
    expect(test.body).toEqual({ success: true });
    const sync = await api.post(`${base}/sync`);
    expect(sync.status).toBe(200);
    expect(sync.body).toMatchObject({ created: 1, updated: 0, failed: 0 });
    const users = await api.get(`/admin/realms/${realm}-copy/users`);
    expect(users.body.users.map((u: { username: string }) => u.username)).toEqual(["lena"]);
  }, 60_000);
}));
