import { BrowserSession } from "./support/browser-session.js";
import { BrokeringWorld } from "./support/brokering-world.js";
import { targets } from "./support/targets.js";

/**
 * The idp-redirector step of a browser flow (docs/authentication-flows.md; Keycloak's Identity
 * Provider Redirector): the login page is skipped for the configured provider's login, with the
 * real upstream OpenID Provider (oidc-provider), and the login ends in tokens openid-client accepts.
 */
describe.each(targets())("authentication flows: idp-redirector ($mode)", (target) => {
  const w = new BrokeringWorld(target, "flows-broker");

  beforeAll(async () => {
    await w.setUp();
    const flow = await w.api.post(`/admin/realms/${w.realm}/authentication/flows`, {
      alias: "upstream only", steps: [{ type: "idp-redirector", requirement: "REQUIRED", config: { alias: "up" } }],
    });
    expect(flow.status).toBe(201);
    expect((await w.api.put(`/admin/realms/${w.realm}`, { browserFlow: "upstream only" })).status).toBe(200);
  }, 120_000);
  afterAll(async () => w.tearDown());

  it("sends the login page straight to the provider, and the brokered login ends in tokens", async () => {
    w.op.accounts.set("u-flow", { sub: "u-flow", preferred_username: "flowy", email: "flowy@example.com", email_verified: true, given_name: "F", family_name: "Lowy" });
    w.op.nextLogin = "u-flow";
    const b = new BrowserSession(w.server.url);
    const config = await w.rp.config("rp");
    const s = await w.rp.start(config);
    const first = await b.get(s.url.href);
    expect(first.status).toBe(302);
    const broker = new URL(first.location, w.server.url);
    expect(broker.pathname).toBe(`/realms/${w.realm}/broker/up/login`);
    expect([...broker.searchParams.keys()].sort()).toEqual(["csrf", "tx"]);
    const out = await b.get(broker.href);
    expect(out.status).toBe(302);
    expect(out.location.startsWith(w.op.url)).toBe(true);
    const back = await b.get(await w.throughUpstream(out.location));
    const tokens = await w.rp.redeem(config, s, back);
    const user = await w.userByName("flowy");
    expect(tokens.claims()).toMatchObject({ sub: user!.id, preferred_username: "flowy", amr: ["fed"] });
  });

  it("denies the password grant when the direct-grant flow is only the provider", async () => {
    expect((await w.api.post(`/admin/realms/${w.realm}/users`, { username: "pat", password: "Pat-Secret-12" })).status).toBe(201);
    expect((await w.api.put(`/admin/realms/${w.realm}/clients/rp`, { grantTypes: ["authorization_code", "password"] })).status).toBe(200);
    const grant = async () => {
      const res = await fetch(`${w.server.url}/realms/${w.realm}/protocol/openid-connect/token`, {
        method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ grant_type: "password", client_id: "rp", username: "pat", password: "Pat-Secret-12" }).toString(),
      });
      return [res.status, await res.json()] as const;
    };
    expect((await grant())[0]).toBe(200);
    expect((await w.api.put(`/admin/realms/${w.realm}`, { directGrantFlow: "upstream only" })).status).toBe(200);
    expect(await grant()).toEqual([400, { error: "invalid_grant", error_description: "Access denied" }]);
  });
});
