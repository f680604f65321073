import type { Note } from "./keycloak-clients.js";
import { canonicalLocaleTag } from "../../../../services/kit/src/validation/locale-tag.js";

type Json = Record<string, any>;

const DEFAULT_THEME = "tessera";

/**
 * Keycloak realm settings as Tessera's: token lifespans (Keycloak's refresh token lives as long as
 * the SSO session idle timeout; offline ones the offline session idle timeout), SMTP, the password
 * policy string, brute-force detection, registration, editable usernames, remember me and events. Each
 * setting without an equivalent is noted with its path.
 */
export function keycloakSettings(kc: Json, note: Note): Json {
  const out: Json = {
    name: realmName(String(kc.realm), note), displayName: String(kc.displayName ?? ""), enabled: kc.enabled !== false,
    accessTokenLifespan: int(kc.accessTokenLifespan, 300), refreshTokenLifespan: int(kc.ssoSessionIdleTimeout, 1800),
    offlineTokenLifespan: int(kc.offlineSessionIdleTimeout, 2_592_000), ssoSessionMaxLifespan: int(kc.ssoSessionMaxLifespan, 36_000),
    smtpHost: "", smtpPort: 587, smtpUser: "", smtpFrom: "", smtpSecure: false,
    passwordMinLength: 8, passwordRequireUppercase: false, passwordRequireLowercase: false, passwordRequireDigits: false,
    passwordRequireSpecialChars: false, passwordHistoryCount: 0, passwordMaxAgeDays: 0,
    bruteForceEnabled: kc.bruteForceProtected === true, maxLoginFailures: Math.max(1, int(kc.failureFactor, 30)),
    lockoutDuration: Math.max(1, int(kc.waitIncrementSeconds, 60)), failureResetTime: Math.max(1, int(kc.maxDeltaTimeSeconds, 43_200)),
    permanentLockoutAfter: 0,
    registrationAllowed: kc.registrationAllowed === true, requireEmailVerification: kc.verifyEmail === true, mfaRequired: false,
    eventsEnabled: kc.eventsEnabled === true, eventsExpiration: Math.max(1, int(kc.eventsExpiration, 604_800)), adminEventsEnabled: kc.adminEventsEnabled === true,
    themeName: DEFAULT_THEME, theme: {}, loginTheme: DEFAULT_THEME, accountTheme: DEFAULT_THEME, emailTheme: DEFAULT_THEME,
    rateLimitPerIp: 0, rateLimitPerClient: 0,
    // Same name and meaning ("Forgot password?" on the login page); absent is false.
    resetPasswordAllowed: kc.resetPasswordAllowed === true,
    // Same name and meaning (users rename themselves in the account console); absent is false.
    editUsernameAllowed: kc.editUsernameAllowed === true,
    // Keycloak 26's switch; absent in its representation means its default, off.
    organizationsEnabled: kc.organizationsEnabled === true,
    actionTokenGeneratedByAdminLifespan: Math.max(1, int(kc.actionTokenGeneratedByAdminLifespan, 43_200)),
    actionTokenGeneratedByUserLifespan: Math.max(1, int(kc.actionTokenGeneratedByUserLifespan, 300)),
    // Same names and meaning: "Remember me" on the login page, and the SSO Session Idle and Max of
    // such logins (0, Keycloak's default, keeps the usual ones).
    rememberMe: kc.rememberMe === true,
    ssoSessionIdleTimeoutRememberMe: Math.max(0, int(kc.ssoSessionIdleTimeoutRememberMe, 0)),
    ssoSessionMaxLifespanRememberMe: Math.max(0, int(kc.ssoSessionMaxLifespanRememberMe, 0)),
  };
  for (const k of ["loginTheme", "accountTheme", "emailTheme"]) {
    if (kc[k] && kc[k] !== "keycloak" && kc[k] !== "keycloak.v2") note(`$.${k}`, `theme "${kc[k]}" has no equivalent: the "${DEFAULT_THEME}" preset is used`);
  }
  if (kc.bruteForceProtected === true) {
    if (int(kc.maxFailureWaitSeconds, 900) !== out.lockoutDuration) {
      note("$.maxFailureWaitSeconds", "Tessera locks for a fixed lockoutDuration (waitIncrementSeconds), without Keycloak's growing waits");
    }
    if (kc.permanentLockout === true) {
      out.permanentLockoutAfter = Math.max(1, int(kc.maxTemporaryLockouts, 0));
      if (int(kc.maxTemporaryLockouts, 0) === 0) note("$.permanentLockout", "a permanent lockout at the first lockout has no equivalent: it comes after one temporary lockout");
    }
  }
  smtp(kc.smtpServer, out, note);
  passwordPolicy(kc.passwordPolicy, out, note);
  webAuthnPasswordless(kc, out, note);
  localization(kc, out, note);
  return out;
}

/** Keycloak's passwordless policy fields, which Tessera's realm carries under the same names and values. */
export const KEYCLOAK_PASSWORDLESS_FIELDS: Readonly<Record<string, "string" | "list" | "int" | "boolean">> = {
  webAuthnPolicyPasswordlessRpEntityName: "string", webAuthnPolicyPasswordlessSignatureAlgorithms: "list",
  webAuthnPolicyPasswordlessRpId: "string", webAuthnPolicyPasswordlessAttestationConveyancePreference: "string",
  webAuthnPolicyPasswordlessAuthenticatorAttachment: "string", webAuthnPolicyPasswordlessRequireResidentKey: "string",
  webAuthnPolicyPasswordlessUserVerificationRequirement: "string", webAuthnPolicyPasswordlessCreateTimeout: "int",
  webAuthnPolicyPasswordlessAvoidSameAuthenticatorRegister: "boolean", webAuthnPolicyPasswordlessAcceptableAaguids: "list",
  webAuthnPolicyPasswordlessExtraOrigins: "list",
};

/**
 * The WebAuthn Passwordless Policy as Keycloak exported it: each field present is taken as it is
 * (the directory checks the values, naming the field); an absent one keeps Tessera's default.
 * Keycloak's empty signature algorithm list means its default, ES256 and RS256
 * (RealmAdapter.getWebAuthnPolicy), so it is written as that.
 */
function webAuthnPasswordless(kc: Json, out: Json, note: Note): void {
  for (const [field, kind] of Object.entries(KEYCLOAK_PASSWORDLESS_FIELDS)) {
    const v = kc[field];
    if (v === undefined || v === null) continue;
    const ok = kind === "list" ? Array.isArray(v) && v.every((x) => typeof x === "string")
      : kind === "int" ? Number.isInteger(v) : typeof v === kind;
    if (!ok) {
      note(`$.${field}`, `not ${kind === "list" ? "a list of strings" : `a${kind === "int" ? "n integer" : ` ${kind}`}`}: Tessera's default is kept`);
      continue;
    }
    out[field] = kind === "list" ? [...v] : v;
  }
  if (Array.isArray(out.webAuthnPolicyPasswordlessSignatureAlgorithms) && out.webAuthnPolicyPasswordlessSignatureAlgorithms.length === 0) {
    out.webAuthnPolicyPasswordlessSignatureAlgorithms = ["ES256", "RS256"];
  }
}

/**
 * Keycloak's internationalization fields and localizationTexts (locale -> key -> text), as
 * Tessera's realm carries them; a locale tag the directory would refuse is left out and noted.
 */
function localization(kc: Json, out: Json, note: Note): void {
  out.internationalizationEnabled = kc.internationalizationEnabled === true;
  const tags = Array.isArray(kc.supportedLocales) ? kc.supportedLocales.filter((t: unknown): t is string => typeof t === "string") : [];
  out.supportedLocales = tags.filter((t: string) => {
    const ok = canonicalLocaleTag(t) !== undefined;
    if (!ok) note("$.supportedLocales", `"${t}" is not a BCP 47 language tag: left out`);
    return ok;
  });
  if (typeof kc.defaultLocale === "string" && kc.defaultLocale !== "") {
    if (out.supportedLocales.length === 0 || out.supportedLocales.includes(kc.defaultLocale)) out.defaultLocale = kc.defaultLocale;
    else note("$.defaultLocale", `"${kc.defaultLocale}" is not among supportedLocales: left out`);
  }
  if (kc.localizationTexts && typeof kc.localizationTexts === "object") {
    const texts: Record<string, Record<string, string>> = {};
    for (const [locale, map] of Object.entries(kc.localizationTexts as Json)) {
      if (canonicalLocaleTag(locale) === undefined || !map || typeof map !== "object") {
        note(`$.localizationTexts.${locale}`, "not a BCP 47 language tag: left out");
        continue;
      }
      texts[locale] = Object.fromEntries(Object.entries(map as Json).filter(([, v]) => typeof v === "string"));
    }
    if (Object.keys(texts).length) out.localizationTexts = texts;
  }
}

function smtp(s: Json | undefined, out: Json, note: Note): void {
  if (!s || !s.host) return;
  out.smtpHost = String(s.host);
  out.smtpPort = int(s.port, s.ssl === "true" ? 465 : 587);
  out.smtpUser = String(s.user ?? "");
  out.smtpFrom = String(s.from ?? "");
  out.smtpSecure = s.ssl === "true";
  if (typeof s.password === "string" && s.password !== "" && !/^\*+$/.test(s.password)) out.smtpPassword = s.password;
  else if (s.auth === "true") note("$.smtpServer.password", "no SMTP password in the document (masked): set it after the import");
  if (s.starttls === "false" && s.ssl !== "true") note("$.smtpServer.starttls", "Tessera uses STARTTLS when the server offers it");
}

/**
 * Keycloak's policy string ("length(8) and upperCase(1) and digits(1) and passwordHistory(3)").
 * Tessera's character-class rules ask for at least one of a class: a count above 1 is noted.
 */
function passwordPolicy(policy: unknown, out: Json, note: Note): void {
  if (typeof policy !== "string" || policy.trim() === "") return;
  for (const part of policy.split(/\s+and\s+/)) {
    const m = /^([A-Za-z]+)\((.*)\)$/.exec(part.trim());
    const path = `$.passwordPolicy["${part.trim()}"]`;
    if (!m) {
      note(path, "unreadable password policy rule");
      continue;
    }
    const [, rule, arg] = m as unknown as [string, string, string];
    const n = int(arg, 1);
    const cls = (field: string) => {
      out[field] = n > 0;
      if (n > 1) note(path, `${rule}(${n}) becomes "at least one": Tessera does not count characters of a class`);
    };
    switch (rule) {
      case "length": out.passwordMinLength = Math.min(128, Math.max(1, n)); break;
      case "upperCase": cls("passwordRequireUppercase"); break;
      case "lowerCase": cls("passwordRequireLowercase"); break;
      case "digits": cls("passwordRequireDigits"); break;
      case "specialChars": cls("passwordRequireSpecialChars"); break;
      case "passwordHistory": out.passwordHistoryCount = Math.min(100, n); break;
      case "forceExpiredPasswordChange": out.passwordMaxAgeDays = n; break;
      case "hashAlgorithm": case "hashIterations": note(path, "Tessera hashes new passwords with argon2id; imported hashes are re-hashed at the next login"); break;
      default: note(path, `password policy rule "${rule}" has no equivalent`);
    }
  }
}

/**
 * Keycloak realm names may hold capitals ("Acme"); Tessera's are lowercase slugs. A name whose
 * lowercase form is a slug is lowercased (noted: issuer URLs change with it); any other is left for
 * validation to refuse with its path.
 */
function realmName(name: string, note: Note): string {
  const lower = name.toLowerCase();
  if (lower !== name && /^[a-z0-9]([a-z0-9._-]*[a-z0-9])?$/.test(lower)) {
    note("$.realm", `realm name "${name}" became "${lower}": Tessera's realm names are lowercase`);
    return lower;
  }
  return name;
}

function int(v: unknown, d: number): number {
  const n = typeof v === "string" ? Number(v) : v;
  return typeof n === "number" && Number.isInteger(n) ? n : d;
}
