import { adminApi, http, uniqueName } from "./support/http.js";
import { startEmbeddedServer, type TestServer } from "./support/embedded-server.js";
import { BrowserSession, titleOf, type PageResponse } from "./support/browser-session.js";

// The hosted pages in the realm's languages (Keycloak's internationalization: supportedLocales,
// defaultLocale, kc_locale, ui_locales, the locale cookie, Accept-Language) and the realm's text
// overrides. Embedded; the cluster tier needs TESSERA_TEST_NATS_URL.
describe("localized hosted pages (embedded)", () => {
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;
  let realm: string;
  let plain: string;
  const CB = "http://localhost:3991/cb";
  const CHALLENGE = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";

  beforeAll(async () => {
    server = await startEmbeddedServer("localization-pages");
    api = adminApi(server.url, server.apiKey);
    realm = uniqueName("i18n");
    plain = uniqueName("i18n-off");
    const created = await api.post("/admin/realms", {
      name: realm, displayName: "Shop", internationalizationEnabled: true, supportedLocales: ["en", "de"], defaultLocale: "de",
      resetPasswordAllowed: true,
    });
    expect([created.status, created.body.internationalizationEnabled, created.body.supportedLocales, created.body.defaultLocale]).toEqual([201, true, ["en", "de"], "de"]);
    const off = await api.post("/admin/realms", { name: plain, displayName: "Plain" });
    expect([off.status, off.body.internationalizationEnabled, off.body.supportedLocales, off.body.defaultLocale]).toEqual([201, false, [], ""]);
    for (const r of [realm, plain]) {
      expect((await api.post(`/admin/realms/${r}/clients`, { clientId: "spa", name: "Web Shop", clientType: "PUBLIC", redirectUris: [CB] })).status).toBe(201);
      expect((await api.post(`/admin/realms/${r}/users`, { username: "alice", email: "alice@example.com", password: "correct-horse-1" })).status).toBe(201);
    }
  }, 90_000);
  afterAll(async () => {
    await server?.stop();
  });

  const authUrl = (r: string, extra: Record<string, string> = {}) => `${server.url}/realms/${r}/protocol/openid-connect/auth?${new URLSearchParams({
    client_id: "spa", redirect_uri: CB, response_type: "code", scope: "openid", state: "st", code_challenge: CHALLENGE, code_challenge_method: "S256", ...extra,
  })}`;
  const lang = (p: PageResponse) => /<html lang="([^"]*)">/.exec(p.text)?.[1];
  const heading = (p: PageResponse) => /<h2>([^<]*)<\/h2>/.exec(p.text)?.[1];
  const alert = (p: PageResponse) => /<p class="alert" role="alert">([^<]*)<\/p>/.exec(p.text)?.[1];
  const menu = (p: PageResponse) => /<nav class="languages" aria-label="([^"]+)"><ul>(.*?)<\/ul><\/nav>/.exec(p.text);
  const fetchPage = async (url: string, headers: Record<string, string>) => {
    const res = await fetch(url, { headers, redirect: "manual" });
    return { status: res.status, headers: res.headers, text: await res.text(), location: "", url } as PageResponse;
  };

  it("shows the login page in the realm's default locale, German, with a language menu", async () => {
    const page = await new BrowserSession(server.url).get(authUrl(realm));
    expect([page.status, lang(page), heading(page), titleOf(page)]).toEqual([200, "de", "Anmelden", "Anmelden"]);
    expect(page.text).toContain('<p class="subtitle">um mit Web Shop fortzufahren</p>');
    expect(page.text).toContain('<label for="username">Benutzername oder E-Mail</label>');
    expect(page.text).toContain('<label for="password">Passwort</label>');
    expect(page.text).toContain('<button type="submit">Anmelden</button>');
    expect(page.text).toContain("Shop · Geschützt durch Tessera");
    const nav = menu(page);
    expect(nav?.[1]).toBe("Sprachen");
    expect(nav?.[2]).toContain('lang="en" hreflang="en">English</a>');
    expect(nav?.[2]).toMatch(/lang="de" hreflang="de" aria-current="true">Deutsch<\/a>/);
  });

  it("takes ui_locales in order, only a supported one (OIDC Core 3.1.2.1)", async () => {
    const frDe = await new BrowserSession(server.url).get(authUrl(realm, { ui_locales: "fr de" }));
    expect([lang(frDe), heading(frDe)]).toEqual(["de", "Anmelden"]);
    const frEn = await new BrowserSession(server.url).get(authUrl(realm, { ui_locales: "fr en" }));
    expect([lang(frEn), heading(frEn)]).toEqual(["en", "Sign in"]);
  });

  it("switches with kc_locale and remembers the choice in TESSERA_LOCALE", async () => {
    const b = new BrowserSession(server.url);
    const first = await b.get(authUrl(realm));
    const english = /<a href="([^"]+)" lang="en"/.exec(first.text)![1]!.replace(/&amp;/g, "&");
    expect(english).toContain("kc_locale=en");
    const switched = await fetch(`${server.url}${english}`, { headers: { cookie: [...b.cookies].map(([k, v]) => `${k}=${v}`).join("; ") }, redirect: "manual" });
    const html = await switched.text();
    expect([switched.status, /<html lang="([^"]*)">/.exec(html)?.[1], /<h2>([^<]*)<\/h2>/.exec(html)?.[1]]).toEqual([200, "en", "Sign in"]);
    expect(switched.headers.getSetCookie().find((c) => c.startsWith("TESSERA_LOCALE="))).toBe(`TESSERA_LOCALE=en; Path=/realms/${realm}/; HttpOnly; SameSite=Lax`);
    // The cookie outranks Accept-Language and the realm default on the next page.
    const later = await fetchPage(authUrl(realm), { cookie: "TESSERA_LOCALE=en", "accept-language": "de" });
    expect([lang(later), heading(later)]).toEqual(["en", "Sign in"]);
    // A locale the realm does not offer is no choice: no cookie, the default locale.
    const unsupported = await fetch(authUrl(realm, { kc_locale: "fr" }), { redirect: "manual" });
    expect(unsupported.headers.getSetCookie().some((c) => c.startsWith("TESSERA_LOCALE="))).toBe(false);
    expect(/<html lang="([^"]*)">/.exec(await unsupported.text())?.[1]).toBe("de");
  });

  it("follows Accept-Language when nothing else chooses", async () => {
    const en = await fetchPage(authUrl(realm), { "accept-language": "es, en-GB;q=0.8, de;q=0.5" });
    expect([lang(en), heading(en)]).toEqual(["en", "Sign in"]);
    const none = await fetchPage(authUrl(realm), { "accept-language": "ja" });
    expect(lang(none)).toBe("de");
  });

  it("says a wrong password in German", async () => {
    const b = new BrowserSession(server.url);
    const wrong = await b.submit(await b.get(authUrl(realm)), { username: "alice", password: "wrong" });
    expect([wrong.status, lang(wrong), alert(wrong)]).toEqual([200, "de", "Ungültiger Benutzername oder ungültiges Passwort."]);
    // The form posted: the menu's links continue the transaction at its login page.
    expect(menu(wrong)?.[2]).toMatch(/href="\/realms\/[^"]+\/login-actions\/authenticate\?tx=[^"&]+&amp;kc_locale=en"/);
  });

  it("speaks the default locale or English whatever the browser asks when internationalization is off", async () => {
    const page = await fetchPage(authUrl(plain, { ui_locales: "de", kc_locale: "de" }), { "accept-language": "de", cookie: "TESSERA_LOCALE=de" });
    expect([page.status, lang(page), heading(page), menu(page)]).toEqual([200, "en", "Sign in", null]);
    expect(page.text).toContain('<label for="username">Username or email</label>');
  });

  it("shows a realm's override instead of the bundle's text, for its locale only", async () => {
    const put = await http("PUT", `${server.url}/admin/realms/${realm}/localization/de/loginAccountTitle`, {
      body: "Willkommen", headers: { "X-Admin-API-Key": server.apiKey, "content-type": "text/plain" },
    });
    expect(put.status).toBe(204);
    const de = await new BrowserSession(server.url).get(authUrl(realm));
    expect([heading(de), titleOf(de)]).toEqual(["Willkommen", "Willkommen"]);
    expect(de.text).toContain('<button type="submit">Anmelden</button>');
    const en = await fetchPage(authUrl(realm), { "accept-language": "en" });
    expect(heading(en)).toBe("Sign in");
    expect((await api.del(`/admin/realms/${realm}/localization/de`)).status).toBe(204);
    expect(heading(await new BrowserSession(server.url).get(authUrl(realm)))).toBe("Anmelden");
  });

  it("speaks the signed-in user's locale attribute once the user is known, before ui_locales", async () => {
    for (const [username, attributes] of [["carol", { locale: ["en"] }], ["dave", undefined]] as const) {
      const created = await api.post(`/admin/realms/${realm}/users`, { username, password: "correct-horse-1", requirePasswordReset: true, ...(attributes ? { attributes } : {}) });
      expect(created.status).toBe(201);
    }
    const carol = new BrowserSession(server.url);
    const carolLogin = await carol.get(authUrl(realm, { ui_locales: "de" }));
    expect(lang(carolLogin)).toBe("de");
    const carolNext = await carol.submit(carolLogin, { username: "carol", password: "correct-horse-1" });
    expect([carolNext.status, lang(carolNext), heading(carolNext)]).toEqual([200, "en", "Update your password"]);
    const dave = new BrowserSession(server.url);
    const daveNext = await dave.submit(await dave.get(authUrl(realm)), { username: "dave", password: "correct-horse-1" });
    expect([daveNext.status, lang(daveNext), heading(daveNext)]).toEqual([200, "de", "Passwort aktualisieren"]);
  });
});
