import { negotiateLocale } from "../../../kit/src/i18n/locale-negotiation.js";
import { translator, type Translate } from "../../../kit/src/i18n/message-bundles.js";
import type { RealmRecord } from "./realm.js";
import { groupByLocale } from "./realm-localization.js";

/**
 * The texts of a mail to `user`: in the user's `locale` attribute when the realm supports it,
 * else the realm's default locale, else English (Keycloak's emails resolve the locale of the
 * user, with no request to read), with the realm's overrides first.
 */
export function mailTranslator(realm: RealmRecord, user: { attributes?: Record<string, string[]> }): Translate {
  const locale = negotiateLocale({
    internationalizationEnabled: realm.internationalizationEnabled === true,
    supportedLocales: realm.supportedLocales ?? [],
    defaultLocale: realm.defaultLocale ?? "",
  }, { userLocale: user.attributes?.locale?.[0] });
  return translator(locale, groupByLocale(realm.localizationTexts ?? []));
}
