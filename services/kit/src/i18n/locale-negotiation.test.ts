import { acceptLanguageTags, negotiateLocale, supportedChoice, type RealmLocales } from "./locale-negotiation.js";

const realm: RealmLocales = { internationalizationEnabled: true, supportedLocales: ["en", "de", "fr"], defaultLocale: "de" };

describe("negotiateLocale (Keycloak's DefaultLocaleSelectorProvider order)", () => {
  const all = { kcLocale: "fr", userLocale: "en", uiLocales: "de", cookie: "en", acceptLanguage: "fr" };

  it("takes kc_locale first, then the user's locale, ui_locales, the cookie, Accept-Language", () => {
    expect(negotiateLocale(realm, all)).toBe("fr");
    expect(negotiateLocale(realm, { ...all, kcLocale: undefined })).toBe("en");
    expect(negotiateLocale(realm, { ...all, kcLocale: undefined, userLocale: undefined })).toBe("de");
    expect(negotiateLocale(realm, { cookie: "fr", acceptLanguage: "en" })).toBe("fr");
    expect(negotiateLocale(realm, { acceptLanguage: "fr-CA,en;q=0.5" })).toBe("fr");
  });

  it("skips a source naming no supported locale, down to the realm default", () => {
    expect(negotiateLocale(realm, { kcLocale: "es", uiLocales: "it pt", cookie: "nonsense!", acceptLanguage: "ja" })).toBe("de");
    expect(negotiateLocale(realm, {})).toBe("de");
    expect(negotiateLocale({ ...realm, defaultLocale: "" }, {})).toBe("en");
  });

  it("reads ui_locales as a preference list (OIDC Core 3.1.2.1)", () => {
    expect(negotiateLocale(realm, { uiLocales: "es fr de" })).toBe("fr");
    expect(negotiateLocale({ ...realm, supportedLocales: ["en", "de"] }, { uiLocales: "fr de" })).toBe("de");
  });

  it("matches by language when the exact tag is not supported", () => {
    expect(negotiateLocale(realm, { kcLocale: "de-CH" })).toBe("de");
    expect(negotiateLocale({ ...realm, supportedLocales: ["en", "pt-BR"] }, { acceptLanguage: "pt" })).toBe("pt-BR");
    expect(negotiateLocale({ ...realm, supportedLocales: ["en", "pt-BR"] }, { acceptLanguage: "PT-br" })).toBe("pt-BR");
  });

  it("speaks the default locale or English whatever is asked when internationalization is off", () => {
    const off = { ...realm, internationalizationEnabled: false };
    expect(negotiateLocale(off, all)).toBe("de");
    expect(negotiateLocale({ ...off, defaultLocale: "" }, all)).toBe("en");
  });

  it("accepts a kc_locale choice for the cookie only when the realm offers it", () => {
    expect(supportedChoice(realm, "fr")).toBe("fr");
    expect(supportedChoice(realm, "es")).toBeUndefined();
    expect(supportedChoice({ ...realm, internationalizationEnabled: false }, "fr")).toBeUndefined();
  });
});

describe("acceptLanguageTags (RFC 9110 section 12.5.4)", () => {
  it("orders by weight, keeps ties in order, drops q=0 and *", () => {
    expect(acceptLanguageTags("fr;q=0.4, de-AT, en;q=0.8, es;q=0, *;q=0.1")).toEqual(["de-AT", "en", "fr"]);
    expect(acceptLanguageTags("")).toEqual([]);
  });
});
