import { MESSAGES_DE } from "./messages-de.js";
import { MESSAGES_EN } from "./messages-en.js";
import { MESSAGES_ES } from "./messages-es.js";
import { MESSAGES_FR } from "./messages-fr.js";
import { primaryLanguage } from "../validation/locale-tag.js";

/** The bundles Tessera ships, by language. A new language is one more file here (docs/localization.md). */
export const BUNDLES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  en: MESSAGES_EN, de: MESSAGES_DE, fr: MESSAGES_FR, es: MESSAGES_ES,
};

/** A realm's overrides: locale -> key -> text (the Admin API's /localization). */
export type Overrides = Readonly<Record<string, Readonly<Record<string, string>>>>;

/** Looks a message up and fills its placeholders; `locale` is the page's. */
export type Translate = (key: string, ...args: Array<string | number>) => string;

/**
 * The text of `key` in `locale`, most specific first, as Keycloak resolves theme messages: the
 * realm's override for the locale, then for its language ("de" for "de-AT"), the bundle of the
 * locale, then of its language; then English (override, bundle); then the key itself, so a page
 * never shows nothing.
 */
export function lookup(key: string, locale: string, overrides: Overrides = {}): string {
  const language = primaryLanguage(locale);
  const sources = [overrides[locale], overrides[language], BUNDLES[locale], BUNDLES[language], overrides.en, BUNDLES.en];
  for (const source of sources) {
    const text = source?.[key];
    if (text !== undefined && Object.prototype.hasOwnProperty.call(source, key)) return text;
  }
  return key;
}

/** Keycloak's MessageFormat placeholders `{0}`, `{1}`...; a missing argument leaves its placeholder. */
export function format(text: string, args: ReadonlyArray<string | number>): string {
  return text.replace(/\{(\d)\}/g, (whole, i: string) => (args[Number(i)] === undefined ? whole : String(args[Number(i)])));
}

export function translator(locale: string, overrides: Overrides = {}): Translate {
  return (key, ...args) => format(lookup(key, locale, overrides), args);
}

/** English text -> key, for the messages the services send in English (server-messages.ts). */
const KEY_OF_ENGLISH = new Map(Object.entries(MESSAGES_EN).map(([key, text]) => [text, key]));

/**
 * A message a service wrote in English ("Invalid username or password.") in the page's locale:
 * the services speak English and the gateway renders every page, so a message whose text is the
 * English bundle's is shown as that key's text; any other (a plugin's, a directory rule's) as sent.
 */
export function translateServerMessage(message: string, t: Translate): string {
  const key = KEY_OF_ENGLISH.get(message);
  return key ? t(key) : message;
}

/** The language's own name for a locale ("Deutsch", "français"), as Keycloak's language menu shows it. */
export function localeLabel(locale: string): string {
  try {
    const name = new Intl.DisplayNames([locale], { type: "language" }).of(locale);
    return name ? name.charAt(0).toLocaleUpperCase(locale) + name.slice(1) : locale;
  } catch {
    return locale;
  }
}
