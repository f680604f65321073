import { adminApi, http, uniqueName } from "./support/http.js";
import { eventually, targets } from "./support/targets.js";
import type { TestServer } from "./support/embedded-server.js";
import { BrowserSession } from "./support/browser-session.js";
import { recordResponses } from "./support/http.js";
import { expectResponsesDocumented } from "./support/openapi-check.js";

// Every response this file receives is checked against the OpenAPI document at its end.
const recorded = recordResponses();

// The sessions admin (spec 4.7, 4.2 offline sessions) records its revocations as admin events
// (spec 2.7) when the realm has adminEventsEnabled, as Keycloak does for USER_SESSION: over HTTP,
// through the audit service's query, with the actor who asked.
describe.each(targets())("admin events of the sessions admin ($mode)", (target) => {
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;
  let realm: string;
  let secret: string;
  let userId: string;
  const PASSWORD = "Sessions-pass-1";
  const CB = "http://localhost:3997/cb";
  const endpoint = (p: string) => `${server.url}/realms/${realm}/protocol/openid-connect/${p}`;
  const passwordGrant = async (scope: string) => {
    const res = await http("POST", endpoint("token"), {
      form: { grant_type: "password", username: "pat", password: PASSWORD, scope },
      headers: { authorization: `Basic ${Buffer.from(`app:${secret}`).toString("base64")}` },
    });
    expect(res.status).toBe(200);
    return res.body as { refresh_token: string; session_state?: string };
  };
  const sessionsOf = async () => ((await api.get(`/admin/realms/${realm}/users/${userId}/sessions`)).body as Array<{ id: string; type: string }>);

  beforeAll(async () => {
    server = await target.start("sessions-admin-events");
    api = adminApi(server.url, server.apiKey);
    realm = uniqueName("sessions-events");
    expect((await api.post("/admin/realms", { name: realm, adminEventsEnabled: true })).status).toBe(201);
    const client = await api.post(`/admin/realms/${realm}/clients`, {
      clientId: "app", grantTypes: ["password", "refresh_token", "authorization_code"], redirectUris: [CB],
    });
    expect(client.status).toBe(201);
    secret = client.body.secret as string;
    const user = await api.post(`/admin/realms/${realm}/users`, { username: "pat", password: PASSWORD });
    expect(user.status).toBe(201);
    userId = user.body.id as string;
  }, 90_000);
  afterAll(async () => server?.stop());

  it("records each revocation: one OAuth session, one SSO session, an offline session, and all of a user's with their count", async () => {
    await passwordGrant("openid");
    await passwordGrant("openid");
    await passwordGrant("openid offline_access");
    const browser = new BrowserSession(server.url);
    const auth = new URL(endpoint("auth"));
    auth.search = new URLSearchParams({ client_id: "app", response_type: "code", scope: "openid", redirect_uri: CB, state: "s" }).toString();
    expect((await browser.submit(await browser.get(auth.href), { username: "pat", password: PASSWORD })).status).toBe(302);

    const listed = await sessionsOf();
    const oauth = listed.filter((s) => s.type === "oauth").map((s) => s.id);
    const sso = listed.find((s) => s.type === "sso")!.id;
    expect(oauth).toHaveLength(2);
    const offline = ((await api.get(`/admin/realms/${realm}/users/${userId}/offline-sessions`)).body as Array<{ id: string }>)[0]!.id;

    expect((await api.del(`/admin/realms/${realm}/sessions/${oauth[0]}`)).status).toBe(200);
    expect((await api.del(`/admin/realms/${realm}/sessions/${sso}?type=sso`)).status).toBe(200);
    expect((await api.del(`/admin/realms/${realm}/users/${userId}/offline-sessions/${offline}`)).status).toBe(204);
    // Refused: nothing to revoke, nothing recorded.
    expect((await api.del(`/admin/realms/${realm}/sessions/${oauth[0]}`)).status).toBe(404);
    const all = await api.del(`/admin/realms/${realm}/users/${userId}/sessions`);
    expect(all.status).toBe(200);

    const events = await eventually(() => api.get(`/admin/realms/${realm}/admin-events?resourceType=USER_SESSION`), (r) => r.body.length >= 4);
    const got = (events.body as Array<{ operationType: string; resourcePath: string; representation: string; authDetails?: { type?: string } }>)
      .map((e) => [e.operationType, e.resourcePath, e.representation ? JSON.parse(e.representation) : null]).reverse();
    expect(got).toEqual([
      ["DELETE", `sessions/${oauth[0]}`, { type: "oauth" }],
      ["DELETE", `sessions/${sso}`, { type: "sso" }],
      ["DELETE", `users/${userId}/offline-sessions/${offline}`, null],
      ["DELETE", `users/${userId}/sessions`, { count: all.body.count }],
    ]);
    expect(all.body.count).toBe(1); // the other OAuth session
    expect(await sessionsOf()).toEqual([]);
  });
});

describe("the responses of this file", () => {
  it("match the OpenAPI document (status, media type, body schema)", () => {
    expect(expectResponsesDocumented(recorded)).toBeGreaterThan(0);
  });
});
