import { IamError } from "../../../kit/src/errors.js";
import type { RealmAdmin } from "./realm-admin.js";
import type { LocalizationText } from "./realm.js";
import { checkLocaleTag } from "./realm-rules.js";

/** Longest message key: Keycloak's keys are camelCase words, dotted or dashed ("loginTotp.totp"). */
export const LOCALIZATION_KEY_MAX_LENGTH = 255;
/** Longest text of one override (Keycloak's column holds 4000 characters... of a text area). */
export const LOCALIZATION_TEXT_MAX_LENGTH = 4000;
/** Most overrides of one locale: a realm overrides some of the few hundred page texts, never more. */
export const MAX_LOCALIZATION_KEYS = 1000;
/** Most locales with overrides in one realm. */
export const MAX_LOCALIZATION_LOCALES = 50;

const KEY = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * A realm's overrides of the page and email texts (Keycloak's RealmLocalizationResource: a locale's
 * texts are a key -> text map; an override wins over the built-in bundle of that locale).
 */
export class RealmLocalization {
  constructor(private readonly realms: RealmAdmin) {}

  /** Locale -> key -> text, every locale that has overrides. */
  async all(realm: string): Promise<Record<string, Record<string, string>>> {
    return groupByLocale((await this.realms.current(realm)).localizationTexts ?? []);
  }

  /** Replaces (or, with `merge`, adds to) one locale's overrides; answers the locale's texts after. */
  async put(realm: string, locale: string, texts: Record<string, string>, merge: boolean): Promise<Record<string, string>> {
    const tag = checkLocaleTag("locale", locale);
    const entries = Object.entries(checkLocalizationTexts(texts));
    const after = await this.realms.changeLocalizationTexts(realm, `localization/${tag}`, (current) => {
      const kept = current.filter((t) => t.locale !== tag || (merge && !Object.prototype.hasOwnProperty.call(texts, t.key)));
      const next = [...kept, ...entries.map(([key, text]) => ({ locale: tag, key, text }))];
      checkBounds(next, tag);
      return next;
    });
    return groupByLocale(after)[tag] ?? {};
  }

  /** Deletes a locale's overrides, or one key's; not_found when there was none. */
  async delete(realm: string, locale: string, key: string): Promise<void> {
    const tag = checkLocaleTag("locale", locale);
    await this.realms.changeLocalizationTexts(realm, `localization/${tag}${key ? `/${key}` : ""}`, (current) => {
      const next = current.filter((t) => !(t.locale === tag && (key === "" || t.key === key)));
      if (next.length === current.length) throw IamError.notFound(key ? `localization text "${key}" of locale "${tag}"` : `localization texts of locale "${tag}"`, "localization_not_found");
      return next;
    });
  }
}

/** Checks a key -> text map (the Admin API's bounds), answering it. */
export function checkLocalizationTexts(texts: Record<string, string>): Record<string, string> {
  const entries = Object.entries(texts);
  if (entries.length > MAX_LOCALIZATION_KEYS) throw IamError.invalid("texts", `at most ${MAX_LOCALIZATION_KEYS} texts per locale`);
  for (const [key, text] of entries) {
    if (key.length > LOCALIZATION_KEY_MAX_LENGTH || !KEY.test(key)) {
      throw IamError.invalid("key", `key "${key.slice(0, 60)}" must be 1 to ${LOCALIZATION_KEY_MAX_LENGTH} letters, digits, '.', '_' or '-'`);
    }
    if (text.length > LOCALIZATION_TEXT_MAX_LENGTH) throw IamError.invalid("text", `the text of "${key}" must be at most ${LOCALIZATION_TEXT_MAX_LENGTH} characters`);
  }
  return texts;
}

function checkBounds(all: LocalizationText[], locale: string): void {
  if (all.filter((t) => t.locale === locale).length > MAX_LOCALIZATION_KEYS) throw IamError.invalid("texts", `at most ${MAX_LOCALIZATION_KEYS} texts per locale`);
  if (new Set(all.map((t) => t.locale)).size > MAX_LOCALIZATION_LOCALES) throw IamError.invalid("locale", `at most ${MAX_LOCALIZATION_LOCALES} locales with texts per realm`);
}

export function groupByLocale(texts: LocalizationText[]): Record<string, Record<string, string>> {
  const out: Record<string, Record<string, string>> = {};
  for (const t of texts) (out[t.locale] ??= {})[t.key] = t.text;
  return out;
}

/** The stored list of a document's locale -> key -> text map (realm import). */
export function flattenTexts(byLocale: Record<string, Record<string, string>>): LocalizationText[] {
  return Object.entries(byLocale).flatMap(([locale, texts]) => Object.entries(texts).map(([key, text]) => ({ locale, key, text })));
}
