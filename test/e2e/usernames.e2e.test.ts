import { adminApi, http, uniqueName } from "./support/http.js";
import { targets } from "./support/targets.js";
import type { TestServer } from "./support/embedded-server.js";
import { BrowserSession, parseForms, type PageResponse } from "./support/browser-session.js";
import { recordResponses } from "./support/http.js";
import { expectResponsesDocumented } from "./support/openapi-check.js";

// Every response this file receives is checked against the OpenAPI document at its end.
const recorded = recordResponses();

// Usernames as Keycloak's default user profile takes them (its username-prohibited-characters
// and homograph rules), normalised to NFKC before the case-insensitive uniqueness check: on
// create, update, import and the registration page, 400 naming `username`.
const HOSTILE = ["<script>x</script>", "../../admin", "a/b", 'x"y', "a;b"];

describe.each(targets())("usernames ($mode)", (target) => {
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;
  let realm: string;
  let secret: string;
  const CB = "http://localhost:3996/cb";

  beforeAll(async () => {
    server = await target.start("usernames");
    api = adminApi(server.url, server.apiKey);
    realm = uniqueName("names");
    expect((await api.post("/admin/realms", { name: realm, registrationAllowed: true })).status).toBe(201);
    const web = await api.post(`/admin/realms/${realm}/clients`, { clientId: "web", grantTypes: ["password"] });
    expect(web.status).toBe(201);
    secret = web.body.secret;
    expect((await api.post(`/admin/realms/${realm}/clients`, { clientId: "spa", clientType: "PUBLIC", redirectUris: [CB] })).status).toBe(201);
  }, 90_000);
  afterAll(async () => server?.stop());

  const users = () => `/admin/realms/${realm}/users`;

  it.each(HOSTILE)("refuses to create %j: 400 naming username, and no user is made", async (username) => {
    const res = await api.post(users(), { username, password: "Correct-Horse-1" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: "invalid_request", field: "username", message: expect.stringMatching(/^username must not contain "/) });
    expect((await api.get(`${users()}?username=${encodeURIComponent(username)}`)).body.users).toEqual([]);
  });

  it("refuses a rename to a prohibited username, and keeps the user as it was", async () => {
    const created = await api.post(users(), { username: "dora" });
    expect(created.status).toBe(201);
    const res = await api.put(`${users()}/${created.body.id}`, { username: "../../admin" });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe("username");
    expect((await api.get(`${users()}/${created.body.id}`)).body.username).toBe("dora");
    // Sending the stored username back unchanged is not a rename.
    expect((await api.put(`${users()}/${created.body.id}`, { username: "dora", firstName: "Dora" })).status).toBe(200);
  });

  it("stores fullwidth ｃａｒｏｌ as carol: one user, found and logged in under either form", async () => {
    const created = await api.post(users(), { username: "ｃａｒｏｌ", password: "Correct-Horse-1" });
    expect(created.status).toBe(201);
    expect(created.body.username).toBe("carol");
    const again = await api.post(users(), { username: "Carol" });
    expect(again.status).toBe(409);
    expect(again.body.field).toBe("username");
    expect((await api.get(`${users()}?username=${encodeURIComponent("ＣＡＲＯＬ")}`)).body.users.map((u: { id: string }) => u.id)).toEqual([created.body.id]);
    const token = await http("POST", `${server.url}/realms/${realm}/protocol/openid-connect/token`, {
      form: { grant_type: "password", client_id: "web", client_secret: secret, username: "ｃａｒｏｌ", password: "Correct-Horse-1" },
    });
    expect(token.status).toBe(200);
  });

  it("refuses prohibited usernames in an import, each with its own error naming username", async () => {
    const res = await api.post(`${users()}/import`, { users: [{ username: "a/b" }, { username: "x\"y" }, { username: "ｅｒｉｎ" }] });
    expect(res.status).toBe(200);
    expect(res.body.imported).toBe(1);
    expect(res.body.failed).toBe(2);
    expect(res.body.errors.map((e: { index: number; error: string }) => [e.index, e.error])).toEqual([[0, "invalid_request"], [1, "invalid_request"]]);
    expect((await api.get(`${users()}?username=erin`)).body.users.map((u: { username: string }) => u.username)).toEqual(["erin"]);
  });

  it("refuses a prohibited username on the registration page, showing why and creating nobody", async () => {
    const b = new BrowserSession(server.url);
    const login = await b.get(`${server.url}/realms/${realm}/protocol/openid-connect/auth?${new URLSearchParams({
      client_id: "spa", redirect_uri: CB, response_type: "code", scope: "openid", state: "st",
      code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM", code_challenge_method: "S256",
    })}`);
    const link = /<a id="register-link" href="([^"]+)"/.exec(login.text)?.[1]?.replace(/&amp;/g, "&");
    const form: PageResponse = await b.get(`${server.url}${link}`);
    expect(form.status).toBe(200);
    const page = await b.submit(form, {
      username: "<script>x</script>", email: "x@example.com", firstName: "X", lastName: "Y", password: "Correct-Horse-1", "password-confirm": "Correct-Horse-1",
    });
    expect(page.status).toBe(200);
    expect(page.text).not.toContain("<script>x</script>");
    const errors = /<ul class="alert" role="alert" id="registration-errors">([\s\S]*?)<\/ul>/.exec(page.text)?.[1] ?? "";
    expect(errors).toBe("<li>Username must not contain &quot;&lt;&quot;: letters, digits and . - _ @ are allowed</li>");
    expect(parseForms(page.text)[0]!.fields.username).toBe("<script>x</script>");
    expect((await api.get(`${users()}?email=x@example.com`)).body.users).toEqual([]);
  });
});

describe("the responses of this file", () => {
  it("match the OpenAPI document (status, media type, body schema)", () => {
    expect(expectResponsesDocumented(recorded)).toBeGreaterThan(0);
  });
});
