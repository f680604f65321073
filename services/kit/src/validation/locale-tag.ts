/**
 * BCP 47 language tags (RFC 5646) as realms name their locales (Keycloak's supportedLocales and
 * defaultLocale: "en", "de", "pt-BR", "zh-Hant"). Well-formedness is the test, as Keycloak's
 * Locale.forLanguageTag: a tag Tessera ships no messages for is still a locale, whose missing
 * texts fall back to English (and a realm's overrides fill them).
 */

/** Longest tag accepted: RFC 5646 section 4.4.1 asks implementations to support at least 35. */
export const LOCALE_TAG_MAX_LENGTH = 35;

/** At most this many supported locales per realm: a language menu, not a catalogue. */
export const MAX_SUPPORTED_LOCALES = 50;

/** RFC 5646 section 2.1 langtag shape, checked again by Intl (which knows the subtag rules). */
const SHAPE = /^[A-Za-z]{2,8}(?:-[A-Za-z0-9]{1,8})*$/;

/**
 * The canonical form of a well-formed tag ("EN-us" -> "en-US", RFC 5646 section 2.1.1 case
 * conventions), or undefined for an ill-formed one. Private-use and grandfathered tags are refused:
 * no page can be written in them.
 */
export function canonicalLocaleTag(tag: string): string | undefined {
  if (tag.length === 0 || tag.length > LOCALE_TAG_MAX_LENGTH || !SHAPE.test(tag)) return undefined;
  try {
    const [canonical] = Intl.getCanonicalLocales(tag);
    return canonical;
  } catch {
    return undefined;
  }
}

/** The primary language subtag ("de" of "de-AT"), lower case. */
export function primaryLanguage(tag: string): string {
  return tag.split("-")[0]!.toLowerCase();
}
