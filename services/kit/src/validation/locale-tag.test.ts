import { canonicalLocaleTag, primaryLanguage } from "./locale-tag.js";

describe("canonicalLocaleTag", () => {
  it("accepts well-formed BCP 47 tags in their canonical case", () => {
    expect(canonicalLocaleTag("en")).toBe("en");
    expect(canonicalLocaleTag("de-AT")).toBe("de-AT");
    expect(canonicalLocaleTag("pt-br")).toBe("pt-BR");
    expect(canonicalLocaleTag("zh-hant")).toBe("zh-Hant");
    // No bundle ships for Swahili: still a locale (missing texts fall back to English).
    expect(canonicalLocaleTag("sw")).toBe("sw");
  });

  it("refuses ill-formed tags", () => {
    for (const bad of ["", "e", "english-language-x", "en_US", "de-", "-de", "en US", "x-private", "12", "a".repeat(40), "de-AT-1234567890"]) {
      expect([bad, canonicalLocaleTag(bad)]).toEqual([bad, undefined]);
    }
  });

  it("names the primary language", () => {
    expect(primaryLanguage("de-AT")).toBe("de");
    expect(primaryLanguage("FR")).toBe("fr");
  });
});
