/** The realm's fields (spec 2.1) as the forms show them: every create field, grouped as Keycloak's realm settings are. */
/**
 * `list`: a multi-line text field of values, one a line (commas also separate them), sent as an
 * array (supportedLocales, the passkey policy's lists).
 */
export type Kind = "text" | "number" | "bool" | "password" | "email" | "theme" | "select" | "list";

export interface RealmField {
  name: string;
  label: string;
  kind: Kind;
  hint?: string;
  /** Whether an update may change it (spec 2.1: the update body accepts only some fields). */
  updatable?: boolean;
  /** The values a "select" offers, as the API spells them. */
  options?: readonly string[];
  /** A "list" the API refuses empty: left out when empty, so the realm's value (or the default) stays. */
  nonEmpty?: boolean;
}

export interface FieldGroup {
  title: string;
  fields: RealmField[];
}

export const REALM_GROUPS: FieldGroup[] = [
  { title: "General", fields: [
    { name: "displayName", label: "Display name", kind: "text", updatable: true },
    { name: "enabled", label: "Enabled", kind: "bool", updatable: true },
    { name: "organizationsEnabled", label: "Organizations", kind: "bool", hint: "Keycloak's switch: off, the realm's organizations are not in effect", updatable: true },
  ] },
  { title: "Tokens", fields: [
    { name: "accessTokenLifespan", label: "Access token lifespan (seconds)", kind: "number", hint: "Default 300", updatable: true },
    { name: "refreshTokenLifespan", label: "Refresh token lifespan (seconds)", kind: "number", hint: "Default 1800", updatable: true },
    { name: "offlineTokenLifespan", label: "Offline token lifespan (seconds)", kind: "number", hint: "Default 2592000" },
    { name: "actionTokenGeneratedByAdminLifespan", label: "Admin-sent action link lifespan (seconds)", kind: "number", hint: "Default 43200 (12 hours)", updatable: true },
    { name: "actionTokenGeneratedByUserLifespan", label: "User-requested action link lifespan (seconds)", kind: "number", hint: "Default 300 (forgot password)", updatable: true },
  ] },
  { title: "Login", fields: [
    { name: "registrationAllowed", label: "User registration", kind: "bool", updatable: true },
    // Keycloak's "Edit username" (editUsernameAllowed): users rename themselves in the account console.
    { name: "editUsernameAllowed", label: "Edit username", kind: "bool", updatable: true },
    // Keycloak's "Remember me" (rememberMe): the login page's checkbox, whose session outlives the browser.
    { name: "rememberMe", label: "Remember me", kind: "bool", updatable: true },
    { name: "requireEmailVerification", label: "Verify email", kind: "bool" },
    { name: "mfaRequired", label: "Require MFA for every user", kind: "bool", updatable: true },
  ] },
  // Keycloak's Sessions tab: the idle bound of a login is the refresh token lifespan (Tokens).
  { title: "Sessions", fields: [
    { name: "ssoSessionMaxLifespan", label: "SSO Session Max (seconds)", kind: "number", hint: "Default 36000; 0 for no bound", updatable: true },
    { name: "ssoSessionIdleTimeoutRememberMe", label: "SSO Session Idle Remember Me (seconds)", kind: "number", hint: "0 uses the refresh token lifespan", updatable: true },
    { name: "ssoSessionMaxLifespanRememberMe", label: "SSO Session Max Remember Me (seconds)", kind: "number", hint: "0 uses SSO Session Max", updatable: true },
  ] },
  { title: "Localization", fields: [
    { name: "internationalizationEnabled", label: "Internationalization", kind: "bool", updatable: true },
    { name: "supportedLocales", label: "Supported locales", kind: "list", hint: "Language tags, one a line (or comma-separated): en, de, fr", updatable: true },
    { name: "defaultLocale", label: "Default locale", kind: "text", hint: "One of the supported locales", updatable: true },
  ] },
  { title: "Authentication", fields: [
    { name: "browserFlow", label: "Browser flow", kind: "text", hint: "A flow's alias (Authentication); browser is the built-in one", updatable: true },
    { name: "directGrantFlow", label: "Direct grant flow", kind: "text", hint: "A flow's alias; direct grant is the built-in one", updatable: true },
  ] },
  // Keycloak's "Webauthn Passwordless Policy" form (Authentication > Policies), under its field names.
  { title: "Passkeys (WebAuthn passwordless policy)", fields: [
    { name: "webAuthnPolicyPasswordlessRpEntityName", label: "Relying party name", kind: "text", hint: "Shown by the authenticator; empty is the realm's name", updatable: true },
    { name: "webAuthnPolicyPasswordlessSignatureAlgorithms", label: "Signature algorithms", kind: "list", nonEmpty: true,
      hint: "One a line: ES256, ES384, ES512, RS256, RS384, RS512, RS1, Ed25519", updatable: true },
    { name: "webAuthnPolicyPasswordlessRpId", label: "Relying party ID", kind: "text", hint: "A domain; empty is the public URL's host", updatable: true },
    { name: "webAuthnPolicyPasswordlessAttestationConveyancePreference", label: "Attestation conveyance preference", kind: "select",
      options: ["not specified", "none", "indirect", "direct"], updatable: true },
    { name: "webAuthnPolicyPasswordlessAuthenticatorAttachment", label: "Authenticator attachment", kind: "select",
      options: ["not specified", "platform", "cross-platform"], updatable: true },
    { name: "webAuthnPolicyPasswordlessRequireResidentKey", label: "Require discoverable credential", kind: "select",
      options: ["not specified", "Yes", "No"], updatable: true },
    { name: "webAuthnPolicyPasswordlessUserVerificationRequirement", label: "User verification requirement", kind: "select",
      options: ["not specified", "required", "preferred", "discouraged"], updatable: true },
    { name: "webAuthnPolicyPasswordlessCreateTimeout", label: "Timeout (seconds)", kind: "number", hint: "0 leaves it to the browser; at most 31536", updatable: true },
    { name: "webAuthnPolicyPasswordlessAvoidSameAuthenticatorRegister", label: "Avoid registering the same authenticator twice", kind: "bool", updatable: true },
    { name: "webAuthnPolicyPasswordlessAcceptableAaguids", label: "Acceptable AAGUIDs", kind: "list", hint: "One a line; empty accepts every authenticator", updatable: true },
    { name: "webAuthnPolicyPasswordlessExtraOrigins", label: "Extra origins", kind: "list", hint: "One a line, such as https://app.example.com", updatable: true },
  ] },
  { title: "Email", fields: [
    { name: "smtpHost", label: "SMTP host", kind: "text", updatable: true },
    { name: "smtpPort", label: "SMTP port", kind: "number", hint: "Default 587", updatable: true },
    { name: "smtpUser", label: "SMTP username", kind: "text", updatable: true },
    { name: "smtpPassword", label: "SMTP password", kind: "password", hint: "Leave empty to keep the current one", updatable: true },
    { name: "smtpFrom", label: "From address", kind: "email", updatable: true },
    { name: "smtpSecure", label: "Use TLS", kind: "bool" },
  ] },
  { title: "Password policy", fields: [
    { name: "passwordMinLength", label: "Minimum length", kind: "number", hint: "Default 8" },
    { name: "passwordRequireUppercase", label: "Require an uppercase letter", kind: "bool" },
    { name: "passwordRequireLowercase", label: "Require a lowercase letter", kind: "bool" },
    { name: "passwordRequireDigits", label: "Require a digit", kind: "bool" },
    { name: "passwordRequireSpecialChars", label: "Require a special character", kind: "bool" },
    { name: "passwordHistoryCount", label: "Passwords remembered", kind: "number" },
    { name: "passwordMaxAgeDays", label: "Password expires after (days)", kind: "number", hint: "0 disables expiry" },
  ] },
  { title: "Brute force detection", fields: [
    { name: "bruteForceEnabled", label: "Brute force detection", kind: "bool" },
    { name: "maxLoginFailures", label: "Maximum login failures", kind: "number", hint: "Default 5" },
    { name: "lockoutDuration", label: "Lockout duration (seconds)", kind: "number", hint: "Default 900" },
    { name: "failureResetTime", label: "Failure reset time (seconds)", kind: "number" },
    { name: "permanentLockoutAfter", label: "Permanent lockout after temporary lockouts", kind: "number", hint: "0 disables" },
  ] },
  { title: "Events", fields: [
    { name: "eventsEnabled", label: "Save login events", kind: "bool" },
    { name: "eventsExpiration", label: "Keep login events for (seconds)", kind: "number", hint: "Default 604800" },
    { name: "adminEventsEnabled", label: "Save admin events", kind: "bool" },
  ] },
  { title: "Themes", fields: [
    { name: "themeName", label: "Theme", kind: "theme", updatable: true },
    { name: "primaryColor", label: "Primary colour", kind: "text", hint: "A CSS colour such as #0066cc", updatable: true },
    { name: "logoUrl", label: "Logo URL", kind: "text", updatable: true },
    { name: "loginTheme", label: "Login theme", kind: "text" },
    { name: "accountTheme", label: "Account theme", kind: "text" },
    { name: "emailTheme", label: "Email theme", kind: "text" },
  ] },
];

const THEME_KEYS = new Set(["primaryColor", "logoUrl"]);
/** Booleans whose server default is true, so that an empty create form sends what the server would choose. */
const BOOL_DEFAULTS = new Set(["enabled", "webAuthnPolicyPasswordlessAvoidSameAuthenticatorRegister"]);

/** Form values of a realm (or of an empty create form). */
export function realmValues(realm: Record<string, unknown>, fields: RealmField[]): Record<string, string | boolean> {
  const theme = (realm.theme ?? {}) as Record<string, unknown>;
  const out: Record<string, string | boolean> = {};
  for (const f of fields) {
    const v = THEME_KEYS.has(f.name) ? theme[f.name] : realm[f.name];
    if (f.kind === "bool") out[f.name] = v === undefined ? BOOL_DEFAULTS.has(f.name) : Boolean(v);
    else if (f.kind === "list") out[f.name] = Array.isArray(v) ? v.join("\n") : "";
    else if (f.name === "smtpPassword") out[f.name] = "";
    else out[f.name] = v === undefined || v === null ? "" : String(v);
  }
  return out;
}

/**
 * The request body: numbers as numbers, empty text left out (the server's default applies), the
 * colour overrides under `theme`. A number field that does not parse is sent as typed, so the API
 * names it in its 400 and the form shows that next to it.
 */
export function realmBody(values: Record<string, string | boolean>, fields: RealmField[]): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const theme: Record<string, string> = {};
  for (const f of fields) {
    const v = values[f.name];
    if (f.kind === "bool") { body[f.name] = Boolean(v); continue; }
    if (f.kind === "list") {
      // An emptied list is sent as [] (it clears the realm's), unless the API refuses an empty one.
      const list = String(v ?? "").split(/[\n,]+/).map((x) => x.trim()).filter(Boolean);
      if (list.length > 0 || !f.nonEmpty) body[f.name] = list;
      continue;
    }
    const s = String(v ?? "").trim();
    if (s === "") continue;
    if (THEME_KEYS.has(f.name)) theme[f.name] = s;
    else body[f.name] = f.kind === "number" && /^-?\d+$/.test(s) ? Number(s) : s;
  }
  if (Object.keys(theme).length > 0) body.theme = theme;
  return body;
}
