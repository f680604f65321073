import { IamError } from "../../../kit/src/errors.js";
import {
  checkColour, checkEmail, checkHostname, checkInt, checkLength, requireString, SLUG,
} from "../../../kit/src/validation/checks.js";
import { REALM_NAME_MAX_LENGTH, RESERVED_REALM_NAMES } from "../../../kit/src/validation/realm-name.js";
import { THEME_IMAGE_URL_MAX_LENGTH, themeImageUrl } from "../../../kit/src/validation/theme-image-url.js";
import { THEME_NAMES, THEME_OVERRIDE_KEYS } from "./themes.js";
import type { RealmCreateInput } from "./realm.js";
import { checkWebAuthnPolicy } from "./webauthn-policy-rules.js";
import { canonicalLocaleTag, MAX_SUPPORTED_LOCALES } from "../../../kit/src/validation/locale-tag.js";

const TEN_YEARS = 315_360_000;

/** The creation rule of a realm name; isPossibleRealmName (kit) is the same rule as a predicate. */
export function checkRealmName(name: string | undefined): string {
  const v = requireString("name", name, 1, REALM_NAME_MAX_LENGTH);
  if (!SLUG.test(v)) {
    throw IamError.invalid("name", "name must be a lowercase slug: a-z, 0-9, '-', '_' or '.', starting and ending with a letter or digit");
  }
  if (RESERVED_REALM_NAMES.has(v)) throw IamError.invalid("name", `name "${v}" is reserved`);
  return v;
}

/**
 * Checks every field present in a create or update input (spec 2.1, 8). Fields absent are not
 * checked here; defaults are applied by the caller.
 */
export function checkRealmFields(input: RealmCreateInput): void {
  const i = input;
  if (i.displayName !== undefined) checkLength("displayName", i.displayName, 0, 255);
  if (i.accessTokenLifespan !== undefined) checkInt("accessTokenLifespan", i.accessTokenLifespan, 1, TEN_YEARS);
  if (i.refreshTokenLifespan !== undefined) checkInt("refreshTokenLifespan", i.refreshTokenLifespan, 1, TEN_YEARS);
  if (i.offlineTokenLifespan !== undefined) checkInt("offlineTokenLifespan", i.offlineTokenLifespan, 1, TEN_YEARS);
  if (i.smtpHost !== undefined && i.smtpHost !== "") checkHostname("smtpHost", i.smtpHost);
  if (i.smtpPort !== undefined) checkInt("smtpPort", i.smtpPort, 1, 65535);
  if (i.smtpUser !== undefined) checkLength("smtpUser", i.smtpUser, 0, 255);
  if (i.smtpPassword !== undefined) checkLength("smtpPassword", i.smtpPassword, 0, 1024);
  if (i.smtpFrom !== undefined && i.smtpFrom !== "") checkEmail("smtpFrom", i.smtpFrom);
  if (i.passwordMinLength !== undefined) checkInt("passwordMinLength", i.passwordMinLength, 1, 128);
  if (i.passwordHistoryCount !== undefined) checkInt("passwordHistoryCount", i.passwordHistoryCount, 0, 100);
  if (i.passwordMaxAgeDays !== undefined) checkInt("passwordMaxAgeDays", i.passwordMaxAgeDays, 0, 36500);
  if (i.maxLoginFailures !== undefined) checkInt("maxLoginFailures", i.maxLoginFailures, 1, 1000);
  if (i.lockoutDuration !== undefined) checkInt("lockoutDuration", i.lockoutDuration, 1, TEN_YEARS);
  if (i.failureResetTime !== undefined) checkInt("failureResetTime", i.failureResetTime, 1, TEN_YEARS);
  if (i.permanentLockoutAfter !== undefined) checkInt("permanentLockoutAfter", i.permanentLockoutAfter, 0, 1000);
  if (i.rateLimitPerIp !== undefined) checkInt("rateLimitPerIp", i.rateLimitPerIp, 0, 1_000_000);
  if (i.rateLimitPerClient !== undefined) checkInt("rateLimitPerClient", i.rateLimitPerClient, 0, 1_000_000);
  if (i.ssoSessionMaxLifespan !== undefined) checkInt("ssoSessionMaxLifespan", i.ssoSessionMaxLifespan, 0, TEN_YEARS);
  // 0 = the usual idle and max lifespans apply to remember-me logins too (Keycloak's meaning).
  if (i.ssoSessionIdleTimeoutRememberMe !== undefined) checkInt("ssoSessionIdleTimeoutRememberMe", i.ssoSessionIdleTimeoutRememberMe, 0, TEN_YEARS);
  if (i.ssoSessionMaxLifespanRememberMe !== undefined) checkInt("ssoSessionMaxLifespanRememberMe", i.ssoSessionMaxLifespanRememberMe, 0, TEN_YEARS);
  if (i.actionTokenGeneratedByAdminLifespan !== undefined) checkInt("actionTokenGeneratedByAdminLifespan", i.actionTokenGeneratedByAdminLifespan, 1, TEN_YEARS);
  if (i.actionTokenGeneratedByUserLifespan !== undefined) checkInt("actionTokenGeneratedByUserLifespan", i.actionTokenGeneratedByUserLifespan, 1, TEN_YEARS);
  if (i.eventsExpiration !== undefined) checkInt("eventsExpiration", i.eventsExpiration, 1, TEN_YEARS);
  for (const f of ["themeName", "loginTheme", "accountTheme", "emailTheme"] as const) {
    const v = i[f];
    if (v !== undefined && !(THEME_NAMES as readonly string[]).includes(v)) {
      throw IamError.invalid(f, `${f} must be one of ${THEME_NAMES.join(", ")}`);
    }
  }
  if (i.theme !== undefined) checkThemeOverrides(i.theme);
  checkWebAuthnPolicy(i);
  if (i.supportedLocales !== undefined) i.supportedLocales = checkSupportedLocales(i.supportedLocales);
  if (i.defaultLocale !== undefined && i.defaultLocale !== "") i.defaultLocale = checkLocaleTag("defaultLocale", i.defaultLocale);
}

/** A well-formed BCP 47 tag, in its canonical case (locale-tag.ts). */
export function checkLocaleTag(field: string, tag: string): string {
  const canonical = canonicalLocaleTag(tag);
  if (!canonical) throw IamError.invalid(field, `${field}: "${tag.slice(0, 40)}" is not a well-formed BCP 47 language tag`);
  return canonical;
}

function checkSupportedLocales(tags: string[]): string[] {
  if (tags.length > MAX_SUPPORTED_LOCALES) throw IamError.invalid("supportedLocales", `supportedLocales holds at most ${MAX_SUPPORTED_LOCALES} locales`);
  const out = tags.map((t) => checkLocaleTag("supportedLocales", t));
  if (new Set(out).size !== out.length) throw IamError.invalid("supportedLocales", "supportedLocales names a locale twice");
  return out;
}

/**
 * Keycloak's rule for the realm as a write leaves it: the default locale is one of the supported
 * ones (when any are listed), since the language menu and the fallback must agree.
 */
export function checkDefaultLocale(realm: { supportedLocales?: string[]; defaultLocale?: string }): void {
  const supported = realm.supportedLocales ?? [];
  if (realm.defaultLocale && supported.length > 0 && !supported.includes(realm.defaultLocale)) {
    throw IamError.invalid("defaultLocale", `defaultLocale "${realm.defaultLocale}" must be one of supportedLocales (${supported.join(", ")})`);
  }
}

function checkThemeOverrides(theme: Record<string, string>): void {
  for (const [key, value] of Object.entries(theme)) {
    const kind = (THEME_OVERRIDE_KEYS as Record<string, string>)[key];
    const field = `theme.${key}`;
    if (!kind) throw IamError.invalid(field, `unknown theme key "${key}"; allowed: ${Object.keys(THEME_OVERRIDE_KEYS).join(", ")}`);
    if (kind === "url") checkThemeImageUrl(field, value);
    else checkColour(field, value);
  }
}

/** A logo or favicon the hosted pages can show (kit theme-image-url.ts: their CSP admits https images only). */
function checkThemeImageUrl(field: string, value: string): void {
  if (themeImageUrl(value) === undefined) {
    throw IamError.invalid(field, `${field} must be an absolute https URL of at most ${THEME_IMAGE_URL_MAX_LENGTH} characters (the hosted pages' Content-Security-Policy blocks http images)`);
  }
}
