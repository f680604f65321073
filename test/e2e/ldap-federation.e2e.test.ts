import { createServer, type Server } from "node:net";
import { Attribute, Change, type Client } from "ldapts";
import { SAML, ValidateInResponseTo } from "@node-saml/node-saml";
import { autoPost } from "./support/saml-pages.js";
import { adminApi, http, uniqueName } from "./support/http.js";
import { eventually, targets } from "./support/targets.js";
import type { TestServer } from "./support/embedded-server.js";
import { BrowserSession } from "./support/browser-session.js";
import { freePort } from "./support/free-port.js";
import { describeTier } from "../support/tier.js";
import { addOu, addPerson, addReader, sharedLdap, withLdap } from "../support/slapd.js";
import { escapeDnValue } from "../../services/federation/src/domain/ldap-text.js";

// LDAP federation (spec 1.5, 2.10, 4.11) against the real OpenLDAP slapd .ci/run starts
// (TESSERA_TEST_LDAP_URL), embedded and in the cluster. Each test makes its own entries under its
// own OU with ldapts.
describeTier("LDAP federation against slapd", ["TESSERA_TEST_LDAP_URL"], () => describe.each(targets())("$mode", (target) => {
  const ldap = sharedLdap();
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;
  let secret = "";
  const CB = "http://localhost:3994/cb";
  const PW = "Ldap-Pass-123";

  async function newRealm(): Promise<string> {
    const name = uniqueName("ldap");
    expect((await api.post("/admin/realms", { name, eventsEnabled: true, adminEventsEnabled: true, bruteForceEnabled: true, maxLoginFailures: 3 })).status).toBe(201);
    const c = await api.post(`/admin/realms/${name}/clients`, { clientId: "web", redirectUris: [CB], grantTypes: ["authorization_code", "password"] });
    expect(c.status).toBe(201);
    secret = c.body.secret;
    return name;
  }
  const ou = (c: Client, name: string) => addOu(c, ldap.baseDn, `${name}-${Math.random().toString(36).slice(2, 8)}`);
  const providerBody = (usersDn: string, extra: Record<string, unknown> = {}) => ({
    name: uniqueName("corp"), providerType: "ldap", connectionUrl: ldap.url, bindDn: ldap.bindDn, bindCredential: ldap.bindPassword, usersDn, ...extra,
  });
  const grant = (realm: string, username: string, password: string) => http("POST", `${server.url}/realms/${realm}/protocol/openid-connect/token`, {
    form: { grant_type: "password", client_id: "web", client_secret: secret, username, password, scope: "openid" },
  });
  const authUrl = (realm: string) => `${server.url}/realms/${realm}/protocol/openid-connect/auth?${new URLSearchParams({
    client_id: "web", redirect_uri: CB, response_type: "code", scope: "openid", state: "st",
  })}`;
  const alertOf = (text: string) => /<p class="alert" role="alert">([^<]*)<\/p>/.exec(text)?.[1];
  const usersOf = async (realm: string) => (await api.get(`/admin/realms/${realm}/users?limit=1000`)).body.users as any[];

  beforeAll(async () => {
    server = await target.start("ldap-federation");
    api = adminApi(server.url, server.apiKey);
  }, 90_000);
  afterAll(async () => server?.stop());

  it("creates, lists, gets, updates and deletes providers with spec 2.10's defaults, never returning the credential", async () => {
    const realm = await newRealm();
    const usersDn = await withLdap(ldap, (c) => ou(c, "crud"));
    const created = await api.post(`/admin/realms/${realm}/user-federation`, providerBody(usersDn, { name: "Corp B", priority: 5 }));
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/), name: "Corp B", providerType: "ldap", enabled: true, priority: 5, connectionUrl: ldap.url,
      bindDn: ldap.bindDn, usersDn, userObjectClass: "inetOrgPerson", usernameLdapAttr: "uid", uuidLdapAttr: "entryUUID", emailLdapAttr: "mail",
      firstNameLdapAttr: "givenName", lastNameLdapAttr: "sn", syncMode: "IMPORT", syncPeriod: 0, changedSyncPeriod: 0, importEnabled: true, connectionTimeout: 10,
      vanishedUsers: "DISABLE", createdAt: expect.any(String), updatedAt: expect.any(String),
    });
    expect(created.text).not.toContain(ldap.bindPassword);
    const a = await api.post(`/admin/realms/${realm}/user-federation`, providerBody(usersDn, { name: "Corp A", priority: 1 }));
    expect(a.status).toBe(201);
    expect((await api.post(`/admin/realms/${realm}/user-federation`, providerBody(usersDn, { name: "corp a" }))).status).toBe(409);
    const list = await api.get(`/admin/realms/${realm}/user-federation`);
    expect(list.status).toBe(200);
    expect(list.body.map((p: any) => p.name)).toEqual(["Corp A", "Corp B"]);
    expect(list.text).not.toContain(ldap.bindPassword);
    const id = created.body.id;
    const put = await api.put(`/admin/realms/${realm}/user-federation/${id}`, { priority: 0, syncMode: "READ_ONLY" });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ name: "Corp B", priority: 0, syncMode: "READ_ONLY", usersDn, bindDn: ldap.bindDn });
    expect((await api.get(`/admin/realms/${realm}/user-federation`)).body.map((p: any) => p.name)).toEqual(["Corp B", "Corp A"]);
    expect((await api.get(`/admin/realms/${realm}/user-federation/${id}`)).body.syncMode).toBe("READ_ONLY");
    const del = await api.del(`/admin/realms/${realm}/user-federation/${id}`);
    expect(del.status).toBe(200);
    expect(del.body).toMatchObject({ id, name: "Corp B" });
    expect((await api.get(`/admin/realms/${realm}/user-federation/${id}`)).status).toBe(404);
    const events = await eventually(async () => (await api.get(`/admin/realms/${realm}/admin-events?resourceType=USER_FEDERATION_PROVIDER`)).body as any[], (e) => e.length === 4);
    expect(events.map((e) => e.operationType).sort()).toEqual(["CREATE", "CREATE", "DELETE", "UPDATE"]);
    expect(JSON.stringify(events)).not.toContain(ldap.bindPassword);
  });

  it("refuses bad URLs, DNs and values with a 400 naming the field", async () => {
    const realm = await newRealm();
    const base = providerBody("ou=people,dc=example,dc=test");
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...base, connectionUrl: "http://127.0.0.1:389" }, "connectionUrl"],
      [{ ...base, connectionUrl: "ldap://127.0.0.1:389/dc=x?uid" }, "connectionUrl"],
      [{ ...base, bindDn: "admin" }, "bindDn"],
      [{ ...base, usersDn: "ou=people,,dc=x" }, "usersDn"],
      [{ ...base, usersDn: 'cn=a"b,dc=x' }, "usersDn"],
      [{ ...base, syncMode: "WRITABLE" }, "syncMode"],
      [{ ...base, providerType: "kerberos" }, "providerType"],
      [{ ...base, syncPeriod: -1 }, "syncPeriod"],
      [{ ...base, usernameLdapAttr: "u id" }, "usernameLdapAttr"],
      [{ ...base, bindCredential: undefined }, "bindCredential"],
      [{ ...base, name: undefined }, "name"],
    ];
    for (const [body, field] of cases) {
      const res = await api.post(`/admin/realms/${realm}/user-federation`, body);
      expect([res.status, res.body.field]).toEqual([400, field]);
    }
    const ok = await api.post(`/admin/realms/${realm}/user-federation`, base);
    expect((await api.put(`/admin/realms/${realm}/user-federation/${ok.body.id}`, { connectionUrl: "ftp://x" })).body.field).toBe("connectionUrl");
  });

  it("tests the connection: success, and each failure said without the credential", async () => {
    const realm = await newRealm();
    const usersDn = await withLdap(ldap, (c) => ou(c, "conn"));
    const test = async (extra: Record<string, unknown>) => {
      const p = await api.post(`/admin/realms/${realm}/user-federation`, providerBody(usersDn, { connectionTimeout: 1, ...extra }));
      expect(p.status).toBe(201);
      const res = await api.post(`/admin/realms/${realm}/user-federation/${p.body.id}/test-connection`);
      expect(res.text).not.toContain(String(extra.bindCredential ?? ldap.bindPassword));
      return res;
    };
    expect(await test({}).then((r) => [r.status, r.body])).toEqual([200, { success: true }]);
    const refused = await test({ connectionUrl: `ldap://127.0.0.1:${await freePort()}` });
    expect([refused.status, refused.body.success, refused.body.error]).toEqual([400, false, "connection_refused"]);
    const badPw = await test({ bindCredential: "wrong-Secret-42" });
    expect([badPw.status, badPw.body.error]).toEqual([400, "invalid_bind_credentials"]);
    const noBase = await test({ usersDn: `ou=nowhere-${Date.now()},${ldap.baseDn}` });
    expect([noBase.status, noBase.body.error]).toEqual([400, "users_dn_not_found"]);
    const tls = await test({ connectionUrl: ldap.url.replace("ldap://", "ldaps://") });
    expect([tls.status, tls.body.error]).toEqual([400, "tls_failure"]);
    // A server that accepts the connection and never answers.
    const silent: Server = createServer(() => undefined);
    const port = await freePort();
    await new Promise<void>((r) => silent.listen(port, "127.0.0.1", r));
    try {
      const slow = await test({ connectionUrl: `ldap://127.0.0.1:${port}` });
      expect([slow.status, slow.body.error]).toEqual([400, "timeout"]);
    } finally {
      silent.close();
    }
    for (const r of [refused, badPw, noBase, tls]) expect(r.body.message).toEqual(expect.any(String));
  }, 30_000);

  it("syncs a seeded directory, then changes and deletions, counting each kind; one bad entry never stops it", async () => {
    const realm = await newRealm();
    const { usersDn, dns } = await withLdap(ldap, async (c) => {
      const dn = await ou(c, "sync");
      const dns: Record<string, string> = {};
      for (const uid of ["ann", "bob", "cid", "dee"]) dns[uid] = await addPerson(c, dn, { uid, givenName: uid.toUpperCase(), sn: "Sync", mail: `${uid}@corp.test`, password: PW });
      dns.x = await addPerson(c, dn, { uid: "x", password: PW }); // a one-letter username: the directory refuses it
      dns.loc = await addPerson(c, dn, { uid: "localuser", cn: "Local Clash", password: PW });
      return { usersDn: dn, dns };
    });
    expect((await api.post(`/admin/realms/${realm}/users`, { username: "localuser", password: PW })).status).toBe(201);
    const p = await api.post(`/admin/realms/${realm}/user-federation`, providerBody(usersDn));
    const sync = () => api.post(`/admin/realms/${realm}/user-federation/${p.body.id}/sync`);
    const first = await sync();
    expect([first.status, first.body]).toEqual([200, { created: 4, updated: 0, failed: 2, removed: 0, finishedAt: expect.any(String) }]);
    const bob = (await usersOf(realm)).find((u) => u.username === "bob");
    expect(bob).toMatchObject({ email: "bob@corp.test", firstName: "BOB", lastName: "Sync", enabled: true, federationLink: p.body.id });
    expect((await usersOf(realm)).find((u) => u.username === "localuser").federationLink).toBeUndefined();
    await withLdap(ldap, async (c) => {
      await c.modify(dns.ann!, new Change({ operation: "replace", modification: new Attribute({ type: "mail", values: ["ann.new@corp.test"] }) }));
      await c.del(dns.cid!);
      await addPerson(c, usersDn, { uid: "eve", cn: "Eve Common", sn: "Sync", password: PW });
    });
    const second = await sync();
    expect(second.body).toMatchObject({ created: 1, updated: 1, failed: 2, removed: 1 });
    const users = await usersOf(realm);
    expect(users.find((u) => u.username === "ann").email).toBe("ann.new@corp.test");
    expect(users.find((u) => u.username === "cid").enabled).toBe(false);
    // givenName absent: the first name is cn (Keycloak's default mapper).
    expect(users.find((u) => u.username === "eve")).toMatchObject({ firstName: "Eve Common", lastName: "Sync" });
    expect((await sync()).body).toMatchObject({ created: 0, updated: 0, failed: 2, removed: 0 });
    expect((await api.get(`/admin/realms/${realm}/user-federation/${p.body.id}`)).body.lastSync).toMatchObject({ created: 0, updated: 0, failed: 2, removed: 0 });
    // Each sync asked through the Admin API is one ACTION admin event with its counts (none per user, as Keycloak).
    const actions = await eventually(async () => (await api.get(`/admin/realms/${realm}/admin-events?operationType=ACTION`)).body as any[], (e) => e.length === 3);
    expect(actions.map((e) => [e.resourceType, e.resourcePath])).toEqual(Array(3).fill(["USER_FEDERATION_PROVIDER", `realms/${realm}/user-federation/${p.body.id}/sync`]));
    // The one USER event is the Admin API's creation of the local user.
    expect((await api.get(`/admin/realms/${realm}/admin-events?resourceType=USER`)).body.map((e: any) => e.operationType)).toEqual(["CREATE"]);
    // Deleting the provider removes the users it imported (as Keycloak), not the local one.
    const del = await api.del(`/admin/realms/${realm}/user-federation/${p.body.id}`);
    expect(del.status).toBe(200);
    expect((await usersOf(realm)).map((u) => u.username)).toEqual(["localuser"]);
  }, 30_000);

  it("runs a changed-entries sync (modifyTimestamp) as Keycloak's triggerChangedUsersSync", async () => {
    const realm = await newRealm();
    const { usersDn, dns } = await withLdap(ldap, async (c) => {
      const dn = await ou(c, "changed");
      const dns: Record<string, string> = {};
      for (const uid of ["cara", "cole", "cruz"]) dns[uid] = await addPerson(c, dn, { uid, sn: "Before", password: PW });
      return { usersDn: dn, dns };
    });
    const p = await api.post(`/admin/realms/${realm}/user-federation`, providerBody(usersDn, { changedSyncPeriod: 0 }));
    expect(p.body.changedSyncPeriod).toBe(0);
    const path = `/admin/realms/${realm}/user-federation/${p.body.id}/sync`;
    expect((await api.post(`${path}?action=triggerFullSync`)).body).toMatchObject({ created: 3, updated: 0, failed: 0, removed: 0 });
    await withLdap(ldap, async (c) => {
      await c.modify(dns.cole!, new Change({ operation: "replace", modification: new Attribute({ type: "sn", values: ["After"] }) }));
      await c.del(dns.cruz!);
      await addPerson(c, usersDn, { uid: "cleo", sn: "New", password: PW });
    });
    // Only changed entries are read: the new and the modified one count; the deleted one is not seen as gone.
    expect((await api.post(`${path}?action=triggerChangedUsersSync`)).body).toMatchObject({ created: 1, updated: 1, failed: 0, removed: 0 });
    expect((await usersOf(realm)).find((u) => u.username === "cole").lastName).toBe("After");
    expect((await usersOf(realm)).find((u) => u.username === "cruz").enabled).toBe(true);
    const bad = await api.post(`${path}?action=everything`);
    expect([bad.status, bad.body.field]).toEqual([400, "action"]);
    expect((await api.post(path)).body).toMatchObject({ created: 0, updated: 0, failed: 0, removed: 1 });
  });

  it("logs LDAP users in on the login page and with the password grant, importing an unknown username at its first bind", async () => {
    const realm = await newRealm();
    const usersDn = await withLdap(ldap, async (c) => {
      const dn = await ou(c, "login");
      await addPerson(c, dn, { uid: "lara", givenName: "Lara", sn: "Bind", mail: "lara@corp.test", password: PW });
      await addPerson(c, dn, { uid: "milo", sn: "Bind", password: PW });
      return dn;
    });
    const p = await api.post(`/admin/realms/${realm}/user-federation`, providerBody(usersDn));
    // Never synced: the first password grant finds the entry, imports it and binds.
    const ok = await grant(realm, "milo", PW);
    expect(ok.status).toBe(200);
    expect(ok.body.access_token).toEqual(expect.any(String));
    const milo = (await usersOf(realm)).find((u) => u.username === "milo");
    expect(milo).toMatchObject({ federationLink: p.body.id, enabled: true });
    const wrong = await grant(realm, "milo", "Not-The-Pass-1");
    expect([wrong.status, wrong.body]).toEqual([400, { error: "invalid_grant", error_description: "Invalid user credentials" }]);
    // The login page, same path.
    const b = new BrowserSession(server.url);
    const bad = await b.submit(await b.get(authUrl(realm)), { username: "lara", password: "Not-The-Pass-1" });
    expect(alertOf(bad.text)).toBe("Invalid username or password.");
    const good = await b.submit(bad, { username: "lara", password: PW });
    expect(good.status).toBe(302);
    expect(good.headers.get("location")).toMatch(/^http:\/\/localhost:3994\/cb\?code=/);
    // Brute force counts LDAP failures as local ones: three wrong binds lock milo.
    await grant(realm, "milo", "Not-The-Pass-1");
    await grant(realm, "milo", "Not-The-Pass-1");
    expect((await grant(realm, "milo", PW)).status).toBe(400);
    const errors = await eventually(async () => (await api.get(`/admin/realms/${realm}/events?type=LOGIN_ERROR&userId=${milo.id}`)).body as any[], (e) => e.length === 4);
    expect(errors.map((e) => e.error).sort()).toEqual(["invalid_user_credentials", "invalid_user_credentials", "invalid_user_credentials", "user_temporarily_disabled"]);
    // MFA applies as to a local user: with mfaRequired the right LDAP password is not enough for the grant.
    expect((await api.put(`/admin/realms/${realm}`, { mfaRequired: true })).status).toBe(200);
    const mfa = await grant(realm, "lara", PW);
    expect([mfa.status, mfa.body]).toEqual([400, { error: "invalid_grant", error_description: "Account is not fully set up" }]);
  }, 30_000);

  it("searches the providers by priority for an unknown username, past one that cannot be reached", async () => {
    const realm = await newRealm();
    const [first, second] = await withLdap(ldap, async (c) => {
      const one = await ou(c, "prio-one");
      const two = await ou(c, "prio-two");
      await addPerson(c, one, { uid: "pat", mail: "pat@one.test", password: PW });
      await addPerson(c, two, { uid: "pat", mail: "pat@two.test", password: PW });
      await addPerson(c, two, { uid: "quin", mail: "quin@two.test", password: PW });
      return [one, two];
    });
    const down = await api.post(`/admin/realms/${realm}/user-federation`, providerBody(first, { priority: 0, connectionUrl: `ldap://127.0.0.1:${await freePort()}`, connectionTimeout: 1 }));
    const two = await api.post(`/admin/realms/${realm}/user-federation`, providerBody(second!, { priority: 5 }));
    const one = await api.post(`/admin/realms/${realm}/user-federation`, providerBody(first!, { priority: 1 }));
    expect([down.status, two.status, one.status]).toEqual([201, 201, 201]);
    // priority 0 is unreachable and skipped; priority 1 holds pat; quin is only in priority 5.
    expect((await grant(realm, "pat", PW)).status).toBe(200);
    expect((await grant(realm, "quin", PW)).status).toBe(200);
    const users = await usersOf(realm);
    expect(users.map((u) => [u.username, u.email, u.federationLink]).sort()).toEqual([
      ["pat", "pat@one.test", one.body.id], ["quin", "quin@two.test", two.body.id],
    ]);
  });

  it("logs an LDAP user in through SAML login, the same AuthenticatePassword path", async () => {
    const realm = await newRealm();
    const usersDn = await withLdap(ldap, async (c) => {
      const dn = await ou(c, "saml");
      await addPerson(c, dn, { uid: "sam", givenName: "Sam", sn: "Saml", mail: "sam@corp.test", password: PW });
      return dn;
    });
    expect((await api.post(`/admin/realms/${realm}/user-federation`, providerBody(usersDn))).status).toBe(201);
    const acs = "http://localhost:3993/acs";
    expect((await api.post(`/admin/realms/${realm}/saml-service-providers`, { entityId: "urn:sp:ldap", name: "LDAP SP", acsUrl: acs, attributeStatements: { sn: "lastName" } })).status).toBe(201);
    const endpoint = `${server.url}/realms/${realm}/protocol/saml`;
    const sp = new SAML({
      entryPoint: endpoint, issuer: "urn:sp:ldap", callbackUrl: acs, idpCert: (await api.get(`/admin/realms/${realm}/saml-keys`)).body[0].certificate,
      audience: "urn:sp:ldap", wantAssertionsSigned: true, wantAuthnResponseSigned: true, validateInResponseTo: ValidateInResponseTo.never,
      identifierFormat: "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress", idpIssuer: `${server.url}/realms/${realm}`,
    });
    const b = new BrowserSession(server.url);
    const page = await b.get(await sp.getAuthorizeUrlAsync("", undefined, {}));
    const posted = autoPost(await b.submit(page, { username: "sam", password: PW }), acs);
    const { profile } = await sp.validatePostResponseAsync({ SAMLResponse: posted.SAMLResponse });
    expect([profile!.nameID, profile!["sn"]]).toEqual(["sam@corp.test", "Saml"]);
  });

  it("refuses profile and password edits of READ_ONLY users with a clear 400", async () => {
    const realm = await newRealm();
    const usersDn = await withLdap(ldap, async (c) => {
      const dn = await ou(c, "ro");
      await addPerson(c, dn, { uid: "rita", givenName: "Rita", sn: "Only", password: PW });
      return dn;
    });
    const p = await api.post(`/admin/realms/${realm}/user-federation`, providerBody(usersDn, { syncMode: "READ_ONLY" }));
    expect((await api.post(`/admin/realms/${realm}/user-federation/${p.body.id}/sync`)).body.created).toBe(1);
    const rita = (await usersOf(realm)).find((u) => u.username === "rita");
    const edit = await api.put(`/admin/realms/${realm}/users/${rita.id}`, { firstName: "Changed" });
    expect([edit.status, edit.body.error, edit.body.field]).toEqual([400, "read_only_user", "firstName"]);
    const pw = await api.put(`/admin/realms/${realm}/users/${rita.id}/reset-password`, { password: "Brand-New-Pass-1" });
    expect([pw.status, pw.body.error, pw.body.field]).toEqual([400, "federated_user", "password"]);
    // What is local stays editable: enabled.
    expect((await api.put(`/admin/realms/${realm}/users/${rita.id}`, { enabled: false })).status).toBe(200);
    expect((await api.get(`/admin/realms/${realm}/users/${rita.id}`)).body).toMatchObject({ firstName: "Rita", enabled: false });
    // In IMPORT mode the profile is editable (the next sync overwrites it).
    expect((await api.put(`/admin/realms/${realm}/user-federation/${p.body.id}`, { syncMode: "IMPORT" })).status).toBe(200);
    expect((await api.put(`/admin/realms/${realm}/users/${rita.id}`, { firstName: "Changed" })).status).toBe(200);
  });

  it("matches nothing for LDAP-injection usernames (RFC 4515 escaping)", async () => {
    const realm = await newRealm();
    const usersDn = await withLdap(ldap, async (c) => {
      const dn = await ou(c, "inj");
      await addPerson(c, dn, { uid: "ivan", password: PW });
      await addPerson(c, dn, { uid: "iris", password: PW });
      // Two entries with one username: ambiguous, so neither is used.
      await addPerson(c, dn, { uid: "twin", password: PW }, "cn=twin1");
      await addPerson(c, dn, { uid: "twin", password: PW }, "cn=twin2");
      return dn;
    });
    await api.post(`/admin/realms/${realm}/user-federation`, providerBody(usersDn));
    for (const name of ["*", "*)(uid=*))(|(uid=*", "iv*", "ivan\u0000", "ivan)(uid=*", "twin"]) {
      const res = await grant(realm, name, PW);
      expect([name, res.status, res.body.error]).toEqual([name, 400, "invalid_grant"]);
    }
    expect(await usersOf(realm)).toEqual([]);
    const events = await eventually(async () => (await api.get(`/admin/realms/${realm}/events?type=LOGIN_ERROR`)).body as any[], (e) => e.length === 6);
    expect(events.map((e) => e.error)).toEqual(Array(6).fill("user_not_found"));
    expect((await grant(realm, "ivan", PW)).status).toBe(200);
  });

  it("syncs and binds entries whose DNs hold , + \" \\ a leading # and non-ASCII (RFC 4514)", async () => {
    const realm = await newRealm();
    const names = ["Smith, John", "a+b", 'say "hi"', "back\\slash", "#hash", "Zoë Åström 山田"];
    const usersDn = await withLdap(ldap, async (c) => {
      const dn = await ou(c, "dn");
      for (const [i, cn] of names.entries()) await addPerson(c, dn, { uid: `dn${i}`, cn, sn: "Dn", password: PW }, `cn=${escapeDnValue(cn)}`);
      return dn;
    });
    const p = await api.post(`/admin/realms/${realm}/user-federation`, providerBody(usersDn));
    expect((await api.post(`/admin/realms/${realm}/user-federation/${p.body.id}/sync`)).body).toMatchObject({ created: 6, failed: 0 });
    const users = await usersOf(realm);
    expect(users.map((u) => u.firstName).sort()).toEqual([...names].sort());
    for (let i = 0; i < names.length; i++) expect([i, (await grant(realm, `dn${i}`, PW)).status]).toEqual([i, 200]);
  }, 30_000);

  const paged = 2000;
  it(`syncs ${paged} entries in RFC 2696 pages as a reader the 500-entry size limit applies to`, async () => {
    const realm = await newRealm();
    const { usersDn, readerDn } = await withLdap(ldap, async (c) => {
      const dn = await ou(c, "paged");
      const readerDn = await addReader(c, dn, "reader", "Reader-Pass-1");
      for (let i = 0; i < paged; i += 50) {
        await Promise.all(Array.from({ length: 50 }, (_, k) => addPerson(c, dn, { uid: `p${i + k}`, sn: "Paged", mail: `p${i + k}@corp.test` })));
      }
      return { usersDn: dn, readerDn };
    });
    const p = await api.post(`/admin/realms/${realm}/user-federation`, providerBody(usersDn, { bindDn: readerDn, bindCredential: "Reader-Pass-1" }));
    const res = await api.post(`/admin/realms/${realm}/user-federation/${p.body.id}/sync`);
    expect([res.status, res.body.created, res.body.failed]).toEqual([200, paged, 0]);
    expect((await api.get(`/admin/realms/${realm}/users?limit=1`)).body.total).toBe(paged);
  }, 180_000);

  it("runs the periodic sync every syncPeriod seconds", async () => {
    const realm = await newRealm();
    const usersDn = await withLdap(ldap, async (c) => {
      const dn = await ou(c, "periodic");
      await addPerson(c, dn, { uid: "pia", password: PW });
      return dn;
    });
    const p = await api.post(`/admin/realms/${realm}/user-federation`, providerBody(usersDn, { syncPeriod: 1 }));
    expect(p.status).toBe(201);
    // Due providers are looked for every TESSERA_FEDERATION_SYNC_CHECK_SECONDS (10 s by default).
    expect((await eventually(() => usersOf(realm), (u) => u.length === 1, 25_000)).map((u) => u.username)).toEqual(["pia"]);
    await withLdap(ldap, (c) => addPerson(c, usersDn, { uid: "paul", password: PW }));
    expect((await eventually(() => usersOf(realm), (u) => u.length === 2, 25_000)).map((u) => u.username).sort()).toEqual(["paul", "pia"]);
    expect((await api.put(`/admin/realms/${realm}/user-federation/${p.body.id}`, { syncPeriod: 0 })).status).toBe(200);
  }, 70_000);
}));
