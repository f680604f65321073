import type { Doc } from "../../../kit/src/store/port.js";
import type { WebAuthnPolicyFields } from "./webauthn-policy.js";

/** A realm as stored. `smtpPasswordSealed` is the SecretBox ciphertext; the plain value never rests. */
export interface RealmRecord extends Doc, WebAuthnPolicyFields {
  name: string;
  displayName: string;
  enabled: boolean;
  accessTokenLifespan: number;
  refreshTokenLifespan: number;
  offlineTokenLifespan: number;
  smtpHost: string;
  smtpPort: number;
  smtpUser: string;
  smtpPasswordSealed?: string;
  smtpFrom: string;
  smtpSecure: boolean;
  passwordMinLength: number;
  passwordRequireUppercase: boolean;
  passwordRequireLowercase: boolean;
  passwordRequireDigits: boolean;
  passwordRequireSpecialChars: boolean;
  passwordHistoryCount: number;
  passwordMaxAgeDays: number;
  bruteForceEnabled: boolean;
  maxLoginFailures: number;
  lockoutDuration: number;
  failureResetTime: number;
  permanentLockoutAfter: number;
  registrationAllowed: boolean;
  requireEmailVerification: boolean;
  mfaRequired: boolean;
  eventsEnabled: boolean;
  eventsExpiration: number;
  adminEventsEnabled: boolean;
  themeName: string;
  theme: Record<string, string>;
  loginTheme: string;
  accountTheme: string;
  emailTheme: string;
  /** Requests per minute per IP on token/login endpoints; 0 = off (the login throttle). */
  rateLimitPerIp: number;
  /** Requests per minute per client_id on the token endpoint; 0 = off. */
  rateLimitPerClient: number;
  /**
   * Keycloak's SSO Session Max (seconds): a login ends that long after it began, however active;
   * 0 = no bound. Absent in realms stored before it existed, which read as the default.
   */
  ssoSessionMaxLifespan?: number;
  /**
   * Keycloak's resetPasswordAllowed: the login page links to "Forgot password?" and the realm mails
   * reset links. Absent in realms stored before it existed, which read as false (Keycloak's default).
   */
  resetPasswordAllowed?: boolean;
  /** RFC 9126 section 6: every client must push its authorization requests. Absent reads as false. */
  requirePushedAuthorizationRequests?: boolean;
  /**
   * Keycloak's editUsernameAllowed: a user may change their own username through the account API
   * (own-profile.ts). Absent in realms stored before it existed, which read as false (Keycloak's
   * default).
   */
  editUsernameAllowed?: boolean;
  /** Aliases of the browser and direct-grant authentication flows; absent reads as the built-in ones. */
  browserFlow?: string;
  directGrantFlow?: string;
  /**
   * Keycloak 26's organizationsEnabled: whether the realm's organizations are in effect. Realms
   * created since it exists store it (false unless asked for, Keycloak's default); a realm stored
   * before it, when organizations were always on, lacks it and reads as true
   * (organizationsEnabledOf).
   */
  organizationsEnabled?: boolean;
  /**
   * Keycloak's action token lifespans in seconds: links an administrator sends (execute-actions
   * email) and links a user asks for (forgot password). Absent in realms stored before them,
   * which read as Keycloak's defaults.
   */
  actionTokenGeneratedByAdminLifespan?: number;
  actionTokenGeneratedByUserLifespan?: number;
  /**
   * Keycloak's internationalization: the hosted pages offer `supportedLocales` (BCP 47 tags) and
   * fall back to `defaultLocale`. Absent in realms stored before them: off, no locales.
   */
  internationalizationEnabled?: boolean;
  supportedLocales?: string[];
  defaultLocale?: string;
  /**
   * Keycloak's rememberMe: the login page offers "Remember me"; such a login's SSO session is
   * bounded by the two lifespans after it (seconds, 0 = the usual refreshTokenLifespan and
   * ssoSessionMaxLifespan). Absent in realms stored before them: off, 0.
   */
  rememberMe?: boolean;
  ssoSessionIdleTimeoutRememberMe?: number;
  ssoSessionMaxLifespanRememberMe?: number;
  /**
   * The realm's overrides of the page and email texts (Keycloak's realm localization texts), one
   * entry per locale and key: a flat list, since message keys hold dots that a document store
   * would read as paths (realm-localization.ts).
   */
  localizationTexts?: LocalizationText[];
  /** How many times the overrides were written: their compare-and-set mark (absent: never). */
  localizationRevision?: number;
  /**
   * Present while the realm is being imported (epoch ms of the importer's last sign of life): the
   * realm is then invisible, and rolled back if the importer stops (realm-import.ts).
   */
  importHeartbeatAt?: number;
  createdAt: number;
  updatedAt: number;
}

/** Every create field of spec 2.1; absent means "use the default". */
export interface RealmCreateInput extends WebAuthnPolicyFields {
  name?: string;
  displayName?: string;
  enabled?: boolean;
  accessTokenLifespan?: number;
  refreshTokenLifespan?: number;
  offlineTokenLifespan?: number;
  smtpHost?: string;
  smtpPort?: number;
  smtpUser?: string;
  smtpPassword?: string;
  smtpFrom?: string;
  smtpSecure?: boolean;
  passwordMinLength?: number;
  passwordRequireUppercase?: boolean;
  passwordRequireLowercase?: boolean;
  passwordRequireDigits?: boolean;
  passwordRequireSpecialChars?: boolean;
  passwordHistoryCount?: number;
  passwordMaxAgeDays?: number;
  bruteForceEnabled?: boolean;
  maxLoginFailures?: number;
  lockoutDuration?: number;
  failureResetTime?: number;
  permanentLockoutAfter?: number;
  registrationAllowed?: boolean;
  requireEmailVerification?: boolean;
  mfaRequired?: boolean;
  eventsEnabled?: boolean;
  eventsExpiration?: number;
  adminEventsEnabled?: boolean;
  themeName?: string;
  theme?: Record<string, string>;
  loginTheme?: string;
  accountTheme?: string;
  emailTheme?: string;
  rateLimitPerIp?: number;
  rateLimitPerClient?: number;
  ssoSessionMaxLifespan?: number;
  resetPasswordAllowed?: boolean;
  requirePushedAuthorizationRequests?: boolean;
  browserFlow?: string;
  directGrantFlow?: string;
  editUsernameAllowed?: boolean;
  organizationsEnabled?: boolean;
  actionTokenGeneratedByAdminLifespan?: number;
  actionTokenGeneratedByUserLifespan?: number;
  internationalizationEnabled?: boolean;
  supportedLocales?: string[];
  defaultLocale?: string;
  rememberMe?: boolean;
  ssoSessionIdleTimeoutRememberMe?: number;
  ssoSessionMaxLifespanRememberMe?: number;
}

/** One override of a page or email text. */
export interface LocalizationText {
  locale: string;
  key: string;
  text: string;
}

/** The update fields of spec 2.1, and the extensions (rate limits, SSO Session Max, the WebAuthn policy). */
export type RealmUpdateInput = Pick<
  RealmCreateInput,
  | "displayName" | "enabled" | "accessTokenLifespan" | "refreshTokenLifespan" | "smtpHost" | "smtpPort"
  | "smtpUser" | "smtpPassword" | "smtpFrom" | "registrationAllowed" | "mfaRequired" | "themeName" | "theme"
  | "rateLimitPerIp" | "rateLimitPerClient" | "ssoSessionMaxLifespan" | "resetPasswordAllowed"
  | "requirePushedAuthorizationRequests" | "browserFlow" | "directGrantFlow" | "editUsernameAllowed"
  | "organizationsEnabled" | keyof WebAuthnPolicyFields
  | "actionTokenGeneratedByAdminLifespan" | "actionTokenGeneratedByUserLifespan"
  | "internationalizationEnabled" | "supportedLocales" | "defaultLocale"
  | "rememberMe" | "ssoSessionIdleTimeoutRememberMe" | "ssoSessionMaxLifespanRememberMe"
>;

/** Marker shown instead of a stored SMTP password (Keycloak shows the same). */
export const REDACTED = "**********";

/** Spec 2.1 and 8 defaults; Keycloak's where the spec is silent (failureResetTime = 12 h). */
export const REALM_DEFAULTS = {
  enabled: true,
  accessTokenLifespan: 300,
  refreshTokenLifespan: 1800,
  offlineTokenLifespan: 2592000,
  smtpHost: "",
  smtpPort: 587,
  smtpUser: "",
  smtpFrom: "",
  smtpSecure: false,
  passwordMinLength: 8,
  passwordRequireUppercase: false,
  passwordRequireLowercase: false,
  passwordRequireDigits: false,
  passwordRequireSpecialChars: false,
  passwordHistoryCount: 0,
  passwordMaxAgeDays: 0,
  bruteForceEnabled: false,
  maxLoginFailures: 5,
  lockoutDuration: 900,
  failureResetTime: 43200,
  permanentLockoutAfter: 0,
  registrationAllowed: true,
  requireEmailVerification: false,
  mfaRequired: false,
  eventsEnabled: false,
  eventsExpiration: 604800,
  adminEventsEnabled: false,
  rateLimitPerIp: 0,
  rateLimitPerClient: 0,
  /** Keycloak's: 10 hours. */
  ssoSessionMaxLifespan: 36_000,
  /** Keycloak's default: no "Forgot password?" until an administrator allows it. */
  resetPasswordAllowed: false,
  /** Keycloak's default: PAR is offered, not required. */
  requirePushedAuthorizationRequests: false,
  /** Keycloak's default: usernames are not editable by their users. */
  editUsernameAllowed: false,
  /** Keycloak's default: a new realm has no organizations until an administrator turns them on. */
  organizationsEnabled: false,
  /** Keycloak's: 12 hours for links an administrator sends, 5 minutes for links a user asks for. */
  actionTokenGeneratedByAdminLifespan: 43_200,
  actionTokenGeneratedByUserLifespan: 300,
  /** Keycloak's default: internationalization off, pages in English. */
  internationalizationEnabled: false,
  /** Keycloak's defaults: no "Remember me"; 0 = a remember-me session keeps the usual lifespans. */
  rememberMe: false,
  ssoSessionIdleTimeoutRememberMe: 0,
  ssoSessionMaxLifespanRememberMe: 0,
} as const;

/**
 * Whether a realm's organizations are in effect (Keycloak 26's OrganizationProvider.isEnabled).
 * Absent only in realms stored before the switch existed, whose organizations were always on:
 * they keep working as they did.
 */
export function organizationsEnabledOf(r: Pick<RealmRecord, "organizationsEnabled">): boolean {
  return r.organizationsEnabled ?? true;
}
