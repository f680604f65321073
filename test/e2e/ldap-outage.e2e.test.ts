import { adminApi, http, uniqueName } from "./support/http.js";
import { eventually } from "./support/targets.js";
import { startEmbeddedServer, type TestServer } from "./support/embedded-server.js";
import { BrowserSession } from "./support/browser-session.js";
import { freePort } from "./support/free-port.js";
import { describeTier } from "../support/tier.js";
import { addOu, addPerson, PrivateSlapd, withLdap } from "../support/slapd.js";

// slapd stopped in the middle of a test, then started again. This file starts its own slapd (the
// Debian binary .ci/run installs, TESSERA_TEST_LDAP_URL's tier) so that stopping it disturbs no
// other test.
describeTier("LDAP federation when slapd goes away", ["TESSERA_TEST_LDAP_URL"], () => {
  let slapd: PrivateSlapd;
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;
  let realm: string;
  let secret: string;
  let providerId: string;
  const CB = "http://localhost:3995/cb";
  const PW = "Outage-Pass-12";

  const grant = (username: string, password: string) => http("POST", `${server.url}/realms/${realm}/protocol/openid-connect/token`, {
    form: { grant_type: "password", client_id: "web", client_secret: secret, username, password },
  });
  const authUrl = () => `${server.url}/realms/${realm}/protocol/openid-connect/auth?${new URLSearchParams({
    client_id: "web", redirect_uri: CB, response_type: "code", scope: "openid", state: "st",
  })}`;
  const alertOf = (text: string) => /<p class="alert" role="alert">([^<]*)<\/p>/.exec(text)?.[1];

  beforeAll(async () => {
    slapd = new PrivateSlapd(await freePort());
    await slapd.start();
    await slapd.seedBase();
    const usersDn = await withLdap(slapd.target, async (c) => {
      const dn = await addOu(c, slapd.target.baseDn, "people");
      await addPerson(c, dn, { uid: "olga", sn: "Outage", password: PW });
      await addPerson(c, dn, { uid: "oscar", sn: "Outage", password: PW });
      return dn;
    });
    server = await startEmbeddedServer("ldap-outage");
    api = adminApi(server.url, server.apiKey);
    realm = uniqueName("outage");
    expect((await api.post("/admin/realms", { name: realm, eventsEnabled: true, bruteForceEnabled: true, maxLoginFailures: 2 })).status).toBe(201);
    const c = await api.post(`/admin/realms/${realm}/clients`, { clientId: "web", redirectUris: [CB], grantTypes: ["authorization_code", "password"] });
    secret = c.body.secret;
    const p = await api.post(`/admin/realms/${realm}/user-federation`, {
      name: "corp", providerType: "ldap", connectionUrl: slapd.url, bindDn: slapd.target.bindDn, bindCredential: slapd.target.bindPassword,
      usersDn, connectionTimeout: 2,
    });
    providerId = p.body.id;
    expect((await api.post(`/admin/realms/${realm}/users`, { username: "lucy", password: PW })).status).toBe(201);
    expect((await api.post(`/admin/realms/${realm}/user-federation/${providerId}/sync`)).body).toMatchObject({ created: 2 });
  }, 90_000);
  afterAll(async () => {
    await server?.stop();
    await slapd?.destroy();
  });

  it("fails LDAP users closed while slapd is down, keeps local users working, and recovers when it is back", async () => {
    expect((await grant("olga", PW)).status).toBe(200);
    await slapd.stop();

    // Local users still log in.
    expect((await grant("lucy", PW)).status).toBe(200);
    // LDAP users fail closed, saying why; the failure is not counted against them (maxLoginFailures 2).
    for (let i = 0; i < 3; i++) {
      const down = await grant("olga", PW);
      expect([down.status, down.body]).toEqual([400, { error: "invalid_grant", error_description: "The user directory is unavailable" }]);
    }
    const b = new BrowserSession(server.url);
    const page = await b.submit(await b.get(authUrl()), { username: "oscar", password: PW });
    expect(page.status).toBe(200);
    expect(alertOf(page.text)).toBe("The user directory is unavailable. Please try again later.");
    // A username no local user has cannot be told apart from an LDAP one: the same answer.
    expect((await grant("nobody-here", PW)).body.error_description).toBe("The user directory is unavailable");
    const events = await eventually(async () => (await api.get(`/admin/realms/${realm}/events?type=LOGIN_ERROR`)).body as any[], (e) => e.length === 5);
    expect(events.map((e) => e.error)).toEqual(Array(5).fill("ldap_connection_refused"));
    const test = await api.post(`/admin/realms/${realm}/user-federation/${providerId}/test-connection`);
    expect([test.status, test.body.error]).toEqual([400, "connection_refused"]);
    const sync = await api.post(`/admin/realms/${realm}/user-federation/${providerId}/sync`);
    expect([sync.status, sync.body.error]).toEqual([503, "ldap_connection_refused"]);
    // A failed sync released nobody: the users are still enabled.
    const users = (await api.get(`/admin/realms/${realm}/users`)).body.users as any[];
    expect(users.map((u) => [u.username, u.enabled]).sort()).toEqual([["lucy", true], ["olga", true], ["oscar", true]]);

    await slapd.start();
    expect((await grant("olga", PW)).status).toBe(200);
    const back = await b.submit(page, { username: "oscar", password: PW });
    expect(back.status).toBe(302);
    expect((await api.post(`/admin/realms/${realm}/user-federation/${providerId}/test-connection`)).body).toEqual({ success: true });
    expect((await api.post(`/admin/realms/${realm}/user-federation/${providerId}/sync`)).body).toMatchObject({ created: 0, updated: 0, failed: 0, removed: 0 });
  }, 60_000);
});
