import { adminApi, http, uniqueName } from "./support/http.js";
import { eventually, targets } from "./support/targets.js";
import type { TestServer } from "./support/embedded-server.js";
import { BrowserSession } from "./support/browser-session.js";
import { OidcRp } from "./support/oidc-rp.js";
import { builtin, listed } from "./support/consent-page.js";
import { recordResponses } from "./support/http.js";
import { expectResponsesDocumented } from "./support/openapi-check.js";

// Every response this file receives is checked against the OpenAPI document at its end.
const recorded = recordResponses();

/**
 * Consent (OIDC Core 1.0 section 3.1.2.4) for clients with `requireConsent`, driven over HTTP with
 * openid-client as the relying party: what the page lists, what is remembered, when it asks again,
 * and the password grant, which has no page to ask on.
 */
for (const target of targets()) describe(`OIDC consent (${target.mode})`, () => {
  let server: TestServer;
  let realm: string;
  let api: ReturnType<typeof adminApi>;
  const CB = "http://localhost:3998/cb";
  const PASSWORD = "Correct-Horse-9";

  beforeAll(async () => {
    server = await target.start("oidc-consent");
    api = adminApi(server.url, server.apiKey);
    realm = uniqueName("consent");
    expect((await api.post("/admin/realms", { name: realm })).status).toBe(201);
    expect((await api.post(`/admin/realms/${realm}/clients`, { clientId: "asks", name: "Asking App", clientType: "PUBLIC", redirectUris: [CB], requireConsent: true })).status).toBe(201);
    expect((await api.post(`/admin/realms/${realm}/users`, { username: "alice", email: "alice@example.com", password: PASSWORD })).status).toBe(201);
  }, 90_000);
  afterAll(async () => server?.stop());

  const { rp, start, login, redeem } = new OidcRp(() => ({ serverUrl: server.url, realm }), CB, PASSWORD).calls();

  it("asks for consent once for a client that requires it", async () => {
    const b = new BrowserSession(server.url);
    const asks = await rp("asks");
    const silent = await start(asks);
    const page = await login(b, await b.get(silent.url.href));
    expect(page.status).toBe(200);
    expect(page.text).toContain("<strong>Asking App</strong> wants to access your account (alice).");
    expect(listed(page.text)).toEqual([builtin("email"), builtin("profile")]);

    // prompt=none meanwhile: consent_required.
    const none = await start(asks, { prompt: "none" });
    const refused = await b.get(none.url.href);
    expect(new URL(refused.location).searchParams.get("error")).toBe("consent_required");

    await redeem(asks, silent, await b.submit(page, { decision: "approve" }));
    const again = await start(asks);
    await redeem(asks, again, await b.get(again.url.href));

    // prompt=consent shows it again; denying answers access_denied.
    const ask = await start(asks, { prompt: "consent" });
    const consentPage = await b.get(ask.url.href);
    expect(consentPage.status).toBe(200);
    expect(listed(consentPage.text)).toEqual([builtin("email"), builtin("profile")]);
    const denied = await b.submit(consentPage, { decision: "deny" });
    expect(denied.status).toBe(302);
    expect(new URL(denied.location).searchParams.get("error")).toBe("access_denied");
  });

  it("covers the default scopes in the consent, and asks again for a default scope the client gets later (OIDC Core 3.1.2.4)", async () => {
    const api = adminApi(server.url, server.apiKey);
    expect((await api.post(`/admin/realms/${realm}/clients`, { clientId: "asks-more", name: "More", clientType: "PUBLIC", redirectUris: [CB], requireConsent: true })).status).toBe(201);
    const more = await rp("asks-more");
    const b = new BrowserSession(server.url);
    // scope=openid: the tokens carry the client's default scopes, so the consent names them.
    const first = await start(more, { scope: "openid" });
    const page = await login(b, await b.get(first.url.href));
    expect(page.status).toBe(200);
    expect(listed(page.text)).toEqual([builtin("email"), builtin("profile")]);
    const tokens = await redeem(more, first, await b.submit(page, { decision: "approve" }));
    expect(tokens.scope).toBe("openid acr basic email profile roles web-origins");
    expect(tokens.claims()).toMatchObject({ email: "alice@example.com", preferred_username: "alice" });
    expect(tokens.claims()!.dept).toBeUndefined();

    const dept = await api.post(`/admin/realms/${realm}/client-scopes`, { name: "dept", description: "Your department" });
    expect(dept.status).toBe(201);
    expect((await api.post(`/admin/realms/${realm}/client-scopes/${dept.body.id}/protocol-mappers`, {
      name: "dept", mapperType: "oidc-hardcoded-claim-mapper",
      config: { "claim.name": "dept", "claim.value": "research", "id.token.claim": "true", "access.token.claim": "true" },
    })).status).toBe(201);
    expect((await api.post(`/admin/realms/${realm}/clients/asks-more/default-client-scopes`, { clientScopeId: dept.body.id })).status).toBe(200);

    // The token would now carry a claim the user never released: asked again, for it alone.
    const silently = async () => {
      const s = await start(more, { scope: "openid", prompt: "none" });
      return new URL((await b.get(s.url.href)).location).searchParams.get("error") ?? "code";
    };
    expect(await eventually(silently, (r) => r === "consent_required")).toBe("consent_required");
    const next = await start(more, { scope: "openid" });
    const asked = await b.get(next.url.href);
    expect(asked.status).toBe(200);
    expect(listed(asked.text)).toEqual(["Your department"]);
    const withDept = await redeem(more, next, await b.submit(asked, { decision: "approve" }));
    expect(withDept.scope).toBe("openid acr basic dept email profile roles web-origins");
    expect(withDept.claims()!.dept).toBe("research");
    expect(await silently()).toBe("code");
  });

  it("refuses the password grant to a client that requires consent (no page can ask it)", async () => {
    const api = adminApi(server.url, server.apiKey);
    const created = await api.post(`/admin/realms/${realm}/clients`, { clientId: "direct-consent", grantTypes: ["password"], requireConsent: true });
    expect(created.status).toBe(201);
    const res = await http("POST", `${server.url}/realms/${realm}/protocol/openid-connect/token`, {
      form: { grant_type: "password", username: "alice", password: PASSWORD, scope: "openid" },
      headers: { authorization: `Basic ${Buffer.from(`direct-consent:${created.body.secret}`).toString("base64")}` },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: "unauthorized_client", error_description: "Client requires user consent" });
    // Once it no longer requires consent, the same request gets tokens.
    expect((await api.put(`/admin/realms/${realm}/clients/direct-consent`, { requireConsent: false })).status).toBe(200);
    const ok = await eventually(() => http("POST", `${server.url}/realms/${realm}/protocol/openid-connect/token`, {
      form: { grant_type: "password", username: "alice", password: PASSWORD, scope: "openid" },
      headers: { authorization: `Basic ${Buffer.from(`direct-consent:${created.body.secret}`).toString("base64")}` },
    }), (r) => r.status === 200);
    expect(ok.body.token_type).toBe("Bearer");
  });
});

describe("the responses of this file", () => {
  it("match the OpenAPI document (status, media type, body schema)", () => {
    expect(expectResponsesDocumented(recorded)).toBeGreaterThan(0);
  });
});
