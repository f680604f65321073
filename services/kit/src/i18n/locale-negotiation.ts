import { canonicalLocaleTag, primaryLanguage } from "../validation/locale-tag.js";

/** The realm's locale settings (Keycloak's internationalizationEnabled, supportedLocales, defaultLocale). */
export interface RealmLocales {
  internationalizationEnabled: boolean;
  supportedLocales: readonly string[];
  defaultLocale: string;
}

/** What a request says about the language it wants, each source as received. */
export interface LocaleHints {
  /** The kc_locale query parameter: a choice from the page's language menu. */
  kcLocale?: string;
  /** The signed-in user's `locale` attribute. */
  userLocale?: string;
  /** The authorization request's ui_locales (OIDC Core 3.1.2.1), space-separated, by preference. */
  uiLocales?: string;
  /** The TESSERA_LOCALE cookie: a choice remembered from an earlier page. */
  cookie?: string;
  /** The Accept-Language header (RFC 9110 section 12.5.4). */
  acceptLanguage?: string;
}

export const FALLBACK_LOCALE = "en";

/**
 * The page's locale in Keycloak's order (DefaultLocaleSelectorProvider): the user's choice on the
 * page (kc_locale), the user's profile locale, the client's ui_locales, the locale cookie, the
 * browser's Accept-Language, then the realm's default, then English. Each source counts only
 * when it names a supported locale. Without internationalization the realm speaks its default
 * locale (or English) whatever the browser asks.
 */
export function negotiateLocale(realm: RealmLocales, hints: LocaleHints): string {
  if (!realm.internationalizationEnabled) return realm.defaultLocale || FALLBACK_LOCALE;
  const supported = realm.supportedLocales.length ? realm.supportedLocales : [realm.defaultLocale || FALLBACK_LOCALE];
  const candidates: Array<string | undefined> = [
    pick(supported, [hints.kcLocale]),
    pick(supported, [hints.userLocale]),
    pick(supported, (hints.uiLocales ?? "").split(" ").slice(0, 20)),
    pick(supported, [hints.cookie]),
    pick(supported, acceptLanguageTags(hints.acceptLanguage ?? "")),
  ];
  return candidates.find((c) => c !== undefined) ?? (realm.defaultLocale || FALLBACK_LOCALE);
}

/** Whether a kc_locale choice is one the realm offers, as its canonical tag (for the cookie). */
export function supportedChoice(realm: RealmLocales, kcLocale: string | undefined): string | undefined {
  if (!realm.internationalizationEnabled) return undefined;
  return pick(realm.supportedLocales, [kcLocale]);
}

/**
 * The first wanted tag the realm supports: per tag, an exact match (case-insensitive), else a
 * supported locale of the same language, the bare language first ("de-CH" is served by "de", and
 * "de" by "de-DE" when that is all the realm has), as Keycloak's findLocale falls back by language.
 */
function pick(supported: readonly string[], wanted: ReadonlyArray<string | undefined>): string | undefined {
  for (const raw of wanted) {
    const tag = raw ? canonicalLocaleTag(raw.trim()) : undefined;
    if (!tag) continue;
    const exact = supported.find((s) => s.toLowerCase() === tag.toLowerCase());
    if (exact) return exact;
    const language = primaryLanguage(tag);
    const sameLanguage = supported.find((s) => s.toLowerCase() === language) ?? supported.find((s) => primaryLanguage(s) === language);
    if (sameLanguage) return sameLanguage;
  }
  return undefined;
}

/** Accept-Language's tags by descending weight (q=0 excluded), ties kept in order; "*" ignored. */
export function acceptLanguageTags(header: string): string[] {
  return header.slice(0, 1000).split(",").slice(0, 30)
    .map((part, index) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
      const weight = q === undefined ? 1 : Number(q.slice(2));
      return { tag: tag.trim(), weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((e) => e.tag !== "" && e.tag !== "*" && e.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index)
    .map((e) => e.tag);
}
