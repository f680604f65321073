import { decodeJwt } from "jose";
import * as oidc from "openid-client";
import { adminApi, http, uniqueName } from "./support/http.js";
import { targets } from "./support/targets.js";
import type { TestServer } from "./support/embedded-server.js";
import { BrowserSession } from "./support/browser-session.js";
import { OidcRp } from "./support/oidc-rp.js";

/**
 * The `organization` scope and claim in Keycloak 26's detailed shape
 * (`"organization": { "<alias>": { "id": "<orgId>" } }`), read by openid-client as the relying party.
 */
for (const target of targets()) describe(`organization claim (${target.mode})`, () => {
  let server: TestServer;
  let realm: string;
  let api: ReturnType<typeof adminApi>;
  const CB = "http://localhost:3997/cb";
  const PASSWORD = "Correct-Horse-9";
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    server = await target.start("organization-claim");
    api = adminApi(server.url, server.apiKey);
    realm = uniqueName("orgclaim");
    expect((await api.post("/admin/realms", { name: realm, organizationsEnabled: true })).status).toBe(201);
    expect((await api.post(`/admin/realms/${realm}/clients`, {
      clientId: "b2b", clientType: "PUBLIC", redirectUris: [CB], grantTypes: ["authorization_code", "refresh_token"],
    })).status).toBe(201);
    const alice = await api.post(`/admin/realms/${realm}/users`, { username: "alice", email: "alice@acme.test", password: PASSWORD });
    const bob = await api.post(`/admin/realms/${realm}/users`, { username: "bob", password: PASSWORD });
    for (const [name, alias] of [["Acme", "acme"], ["Globex", "globex"], ["Off", "off"]]) {
      const res = await api.post(`/admin/realms/${realm}/organizations`, { name, alias, enabled: alias !== "off" });
      ids[alias as string] = res.body.id;
      const add = await http("POST", `${server.url}/admin/realms/${realm}/organizations/${res.body.id}/members`,
        { body: JSON.stringify(alice.body.id), headers: { "X-Admin-API-Key": server.apiKey } });
      expect(add.status).toBe(201);
    }
    expect(bob.status).toBe(201);
  }, 90_000);
  afterAll(async () => server?.stop());

  const { rp, start, login, redeem } = new OidcRp(() => ({ serverUrl: server.url, realm }), CB, PASSWORD).calls();

  async function tokensFor(scope: string, username = "alice") {
    const config = await rp("b2b");
    const b = new BrowserSession(server.url);
    const s = await start(config, { scope });
    return { config, tokens: await redeem(config, s, await login(b, await b.get(s.url.href), username)) };
  }

  it("is an optional client scope of a new client, listed in discovery", async () => {
    const optional = await api.get(`/admin/realms/${realm}/clients/b2b/optional-client-scopes`);
    expect(optional.body.map((s: { name: string }) => s.name)).toContain("organization");
    const doc = await http("GET", `${server.url}/realms/${realm}/.well-known/openid-configuration`);
    expect(doc.body.scopes_supported).toContain("organization");
  });

  it("carries every enabled organization of the member, by alias with its id, in the ID and access tokens", async () => {
    const { config, tokens } = await tokensFor("openid organization");
    const expected = { acme: { id: ids.acme }, globex: { id: ids.globex } };
    expect(tokens.claims()!.organization).toEqual(expected);
    expect(decodeJwt(tokens.access_token).organization).toEqual(expected);
    expect(tokens.scope!.split(" ")).toContain("organization");
    const info = await oidc.fetchUserInfo(config, tokens.access_token, tokens.claims()!.sub);
    expect(info.organization).toEqual(expected);
  });

  it("organization:<alias> asks for that one organization, and is the granted scope", async () => {
    const { tokens } = await tokensFor("openid organization:globex");
    expect(tokens.claims()!.organization).toEqual({ globex: { id: ids.globex } });
    expect(tokens.scope!.split(" ")).toContain("organization:globex");
    expect(tokens.scope!.split(" ")).not.toContain("organization");
    const all = await tokensFor("openid organization:*");
    expect(Object.keys(all.tokens.claims()!.organization as object)).toEqual(["acme", "globex"]);
  });

  it("is absent without the scope, and for a user of no organization", async () => {
    expect((await tokensFor("openid")).tokens.claims()!.organization).toBeUndefined();
    expect((await tokensFor("openid organization", "bob")).tokens.claims()!.organization).toBeUndefined();
  });

  it("refuses a dynamic scope of another client scope", async () => {
    const config = await rp("b2b");
    const s = await start(config, { scope: "openid profile:x" });
    const res = await new BrowserSession(server.url).get(s.url.href);
    expect(res.status).toBe(302);
    expect(new URL(res.location).searchParams.get("error")).toBe("invalid_scope");
  });

  it("lists the member's organization roles under the organization", async () => {
    const roles = `/admin/realms/${realm}/organizations/${ids.globex}/roles`;
    expect((await api.post(roles, { name: "buyer" })).status).toBe(201);
    const alice = (await api.get(`/admin/realms/${realm}/organizations/${ids.globex}/members?search=alice`)).body[0];
    expect((await api.post(`/admin/realms/${realm}/organizations/${ids.globex}/members/${alice.id}/roles`, [{ name: "buyer" }])).status).toBe(204);
    const { tokens } = await tokensFor("openid organization");
    expect(tokens.claims()!.organization).toEqual({ acme: { id: ids.acme }, globex: { id: ids.globex, roles: ["buyer"] } });
  });
});
