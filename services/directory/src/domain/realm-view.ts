import { organizationsEnabledOf, REALM_DEFAULTS, REDACTED, type RealmRecord } from "./realm.js";
import { webAuthnPolicyOf } from "./webauthn-policy.js";
import { jsonTimestamp } from "../../../kit/src/json-timestamp.js";
import { BROWSER_FLOW, DIRECT_GRANT_FLOW } from "../../../kit/src/authentication-flows/flow-model.js";

/** The realm as the Admin API shows it (spec 4.1): every field, the SMTP password redacted. */
export function realmView(r: RealmRecord) {
  const { _id, smtpPasswordSealed, createdAt, updatedAt, importHeartbeatAt: _staging, localizationTexts: _texts, localizationRevision: _revision, ...fields } = r;
  return {
    id: _id,
    ...fields,
    // Realms stored before these settings existed read as "no limit".
    rateLimitPerIp: fields.rateLimitPerIp ?? 0,
    rateLimitPerClient: fields.rateLimitPerClient ?? 0,
    ssoSessionMaxLifespan: fields.ssoSessionMaxLifespan ?? REALM_DEFAULTS.ssoSessionMaxLifespan,
    resetPasswordAllowed: fields.resetPasswordAllowed ?? REALM_DEFAULTS.resetPasswordAllowed,
    requirePushedAuthorizationRequests: fields.requirePushedAuthorizationRequests ?? REALM_DEFAULTS.requirePushedAuthorizationRequests,
    editUsernameAllowed: fields.editUsernameAllowed ?? REALM_DEFAULTS.editUsernameAllowed,
    browserFlow: fields.browserFlow ?? BROWSER_FLOW,
    directGrantFlow: fields.directGrantFlow ?? DIRECT_GRANT_FLOW,
    organizationsEnabled: organizationsEnabledOf(fields),
    ...webAuthnPolicyOf(fields),
    actionTokenGeneratedByAdminLifespan: fields.actionTokenGeneratedByAdminLifespan ?? REALM_DEFAULTS.actionTokenGeneratedByAdminLifespan,
    actionTokenGeneratedByUserLifespan: fields.actionTokenGeneratedByUserLifespan ?? REALM_DEFAULTS.actionTokenGeneratedByUserLifespan,
    internationalizationEnabled: fields.internationalizationEnabled ?? REALM_DEFAULTS.internationalizationEnabled,
    supportedLocales: fields.supportedLocales ?? [],
    defaultLocale: fields.defaultLocale ?? "",
    rememberMe: fields.rememberMe ?? REALM_DEFAULTS.rememberMe,
    ssoSessionIdleTimeoutRememberMe: fields.ssoSessionIdleTimeoutRememberMe ?? REALM_DEFAULTS.ssoSessionIdleTimeoutRememberMe,
    ssoSessionMaxLifespanRememberMe: fields.ssoSessionMaxLifespanRememberMe ?? REALM_DEFAULTS.ssoSessionMaxLifespanRememberMe,
    smtpPassword: smtpPasswordSealed ? REDACTED : "",
    createdAt: jsonTimestamp(createdAt),
    updatedAt: jsonTimestamp(updatedAt),
  };
}

export type RealmView = ReturnType<typeof realmView>;
