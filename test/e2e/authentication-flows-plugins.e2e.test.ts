import { join } from "node:path";
import * as oidc from "openid-client";
import { adminApi, http, recordResponses, uniqueName } from "./support/http.js";
import { startEmbeddedServer, type TestServer } from "./support/embedded-server.js";
import { eventually, targets } from "./support/targets.js";
import { BrowserSession, type PageResponse } from "./support/browser-session.js";
import { ROOT } from "./support/process-runner.js";
import { expectResponsesDocumented } from "./support/openapi-check.js";

const recorded = recordResponses();
const PW = "Plugin-Step-Pass-1";
const CB = "http://localhost:3997/cb";
const EXAMPLE = join(ROOT, "examples", "plugins", "tessera-plugin-example");

// A plugin authenticator step in authentication flows (docs/plugins.md, docs/authentication-flows.md):
// the example plugin's knowledge question (the answer is the user's `example_answer` attribute)
// after the password. Embedded: a server of its own loading the example by path; cluster: the
// shared cluster, whose every service process loads it (global-setup.ts). openid-client redeems
// the code the login pages end with.
describe.each(targets())("authentication flows: plugin steps ($mode)", (target) => {
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;
  let realm: string;
  let secret: string;
  let userId: string;
  let config: oidc.Configuration;
  const flows = () => `/admin/realms/${realm}/authentication/flows`;

  beforeAll(async () => {
    server = target.mode === "embedded"
      ? await startEmbeddedServer("authentication-flows-plugins", { TESSERA_PLUGINS: EXAMPLE })
      : await target.start("authentication-flows-plugins");
    api = adminApi(server.url, server.apiKey);
    realm = uniqueName("flowplug");
    expect((await api.post("/admin/realms", { name: realm, eventsEnabled: true })).status).toBe(201);
    const c = await api.post(`/admin/realms/${realm}/clients`, { clientId: "web", redirectUris: [CB], grantTypes: ["authorization_code", "password"] });
    expect(c.status).toBe(201);
    secret = c.body.secret;
    const u = await api.post(`/admin/realms/${realm}/users`, { username: "quinn", password: PW, attributes: { example_answer: ["teal"] } });
    expect(u.status).toBe(201);
    userId = u.body.id;
    const flow = await api.post(flows(), {
      alias: "question", description: "password, then the example question",
      steps: [
        { type: "username-password", requirement: "REQUIRED" },
        { type: "plugin:example", requirement: "REQUIRED", config: { question: "Favourite <colour>?" } },
      ],
    });
    expect([flow.status, flow.body.steps[1]]).toEqual([201, { type: "plugin:example", requirement: "REQUIRED", config: { question: "Favourite <colour>?" } }]);
    expect((await api.put(`/admin/realms/${realm}`, { browserFlow: "question", directGrantFlow: "question" })).status).toBe(200);
    config = await oidc.discovery(new URL(`${server.url}/realms/${realm}`), "web", secret, undefined, { execute: [oidc.allowInsecureRequests] });
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    expectResponsesDocumented(recorded);
  });

  async function login(b: BrowserSession) {
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: CB, scope: "openid", state, code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: "S256",
    });
    const page = await b.submit(await b.get(url.href), { username: "quinn", password: PW });
    return { page, verifier, state };
  }
  const loginErrors = (count: number) => eventually(
    async () => (await api.get(`/admin/realms/${realm}/events?type=LOGIN_ERROR&userId=${userId}`)).body as Array<{ error: string; details: Record<string, string> }>,
    (e) => e.length >= count,
  );

  it("refuses a step of a plugin not loaded, and settings the plugin does not take", async () => {
    const missing = await api.post(flows(), { alias: "missing", steps: [{ type: "username-password", requirement: "REQUIRED" }, { type: "plugin:missing", requirement: "REQUIRED" }] });
    expect([missing.status, missing.body.error, missing.body.field]).toEqual([400, "invalid_request", "steps[1].type"]);
    expect(missing.body.message).toContain(`unknown step type "plugin:missing"`);
    expect(missing.body.message).toContain("plugin:example");
    const colour = await api.post(flows(), {
      alias: "colour", steps: [{ type: "username-password", requirement: "REQUIRED" }, { type: "plugin:example", requirement: "REQUIRED", config: { colour: "red" } }],
    });
    expect([colour.status, colour.body.field]).toEqual([400, "steps[1].config.colour"]);
  });

  it("asks the plugin's question after the password (escaped); the right answer ends in tokens", async () => {
    const b = new BrowserSession(server.url);
    const { page, verifier, state } = await login(b);
    expect(page.status).toBe(200);
    expect(page.text).toContain("Favourite &lt;colour&gt;?");
    expect(page.text).not.toContain("Favourite <colour>?");
    expect(page.text).toContain(`name="plugin.answer"`);
    expect(page.text).toContain(`value="plugin_challenge"`);
    const done = await b.submit(page, { "plugin.answer": "teal" });
    expect(done.status).toBe(302);
    const tokens = await oidc.authorizationCodeGrant(config, new URL(done.location), { pkceCodeVerifier: verifier, expectedState: state });
    const claims = tokens.claims()!;
    // No amr value is added for a plugin step (RFC 8176 has none for a method the server does not know).
    expect([claims.sub, claims.amr]).toEqual([userId, ["pwd"]]);
  });

  it("shows a wrong answer's error and records it as LOGIN_ERROR; the step may be tried again", async () => {
    const before = (await api.get(`/admin/realms/${realm}/events?type=LOGIN_ERROR&userId=${userId}`)).body.length as number;
    const b = new BrowserSession(server.url);
    const { page, verifier, state } = await login(b);
    const wrong: PageResponse = await b.submit(page, { "plugin.answer": "red" });
    expect(wrong.status).toBe(200);
    expect(wrong.text).toContain(`<p class="alert" role="alert">wrong answer</p>`);
    expect(wrong.text).toContain("Favourite &lt;colour&gt;?");
    const errors = await loginErrors(before + 1);
    expect([errors[0]!.error, errors[0]!.details.authenticator]).toEqual(["wrong answer", "plugin:example"]);
    const done = await b.submit(wrong, { "plugin.answer": "teal" });
    expect(done.status).toBe(302);
    const tokens = await oidc.authorizationCodeGrant(config, new URL(done.location), { pkceCodeVerifier: verifier, expectedState: state });
    expect(tokens.claims()!.sub).toBe(userId);
  });

  it("ends the login after five wrong answers", async () => {
    const b = new BrowserSession(server.url);
    let { page } = await login(b);
    for (let i = 0; i < 4; i++) {
      page = await b.submit(page, { "plugin.answer": `no-${i}` });
      expect(page.text).toContain("wrong answer");
    }
    const last = await b.submit(page, { "plugin.answer": "no-4" });
    expect(last.status).toBe(400);
    expect(last.text).toContain("Too many failed attempts. Please sign in again.");
    expect((await b.submit(page, { "plugin.answer": "teal" })).status).not.toBe(302);
  });

  it("refuses the password grant when the plugin step asks a question: no page can be shown", async () => {
    const grant = await http("POST", `${server.url}/realms/${realm}/protocol/openid-connect/token`, {
      form: { grant_type: "password", client_id: "web", client_secret: secret, username: "quinn", password: PW },
    });
    expect([grant.status, grant.body]).toEqual([400, {
      error: "invalid_grant", error_description: "The authentication flow needs interaction, which the password grant cannot provide",
    }]);
    const errors = await loginErrors(1);
    expect(errors.map((e) => e.error)).toContain("interaction_required");
  });
});
