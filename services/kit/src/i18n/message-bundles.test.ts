import { BUNDLES, format, localeLabel, lookup, translateServerMessage, translator } from "./message-bundles.js";

describe("message bundles", () => {
  it("ship every English key in German, French and Spanish, with the same placeholders", () => {
    const placeholders = (s: string) => (s.match(/\{\d\}/g) ?? []).sort().join();
    for (const lang of ["de", "fr", "es"]) {
      const bundle = BUNDLES[lang]!;
      expect([lang, Object.keys(bundle).sort()]).toEqual([lang, Object.keys(BUNDLES.en!).sort()]);
      for (const [key, text] of Object.entries(BUNDLES.en!)) expect([lang, key, placeholders(bundle[key]!)]).toEqual([lang, key, placeholders(text)]);
    }
  });

  it("falls back from a regional locale to its language, then to English, then to the key", () => {
    expect(lookup("doLogIn", "de")).toBe("Anmelden");
    expect(lookup("doLogIn", "de-AT")).toBe("Anmelden");
    expect(lookup("doLogIn", "sw")).toBe("Sign in");
    expect(lookup("noSuchKey", "de")).toBe("noSuchKey");
  });

  it("puts a realm's overrides first, for the locale, its language, then English", () => {
    const overrides = { de: { doLogIn: "Einloggen" }, en: { doNext: "Onwards" } };
    expect(lookup("doLogIn", "de", overrides)).toBe("Einloggen");
    expect(lookup("doLogIn", "de-CH", overrides)).toBe("Einloggen");
    expect(lookup("doLogIn", "fr", overrides)).toBe("Se connecter");
    expect(lookup("doNext", "sw", overrides)).toBe("Onwards");
    expect(lookup("doNext", "de", overrides)).toBe("Weiter");
  });

  it("fills Keycloak's {0} placeholders", () => {
    expect(translator("de")("loginSubtitle", "Shop")).toBe("um mit Shop fortzufahren");
    expect(format("{0} and {1}", ["a"])).toBe("a and {1}");
  });

  it("translates a service's English message by its text, and passes others through", () => {
    expect(translateServerMessage("Invalid username or password.", translator("de"))).toBe("Ungültiger Benutzername oder ungültiges Passwort.");
    expect(translateServerMessage("A plugin's own words.", translator("de"))).toBe("A plugin's own words.");
  });

  it("names each language in itself", () => {
    expect([localeLabel("de"), localeLabel("fr"), localeLabel("es"), localeLabel("en")]).toEqual(["Deutsch", "Français", "Español", "English"]);
  });
});
