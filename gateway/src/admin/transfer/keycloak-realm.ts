import { isUserRequiredAction, orderedActions } from "../../../../services/kit/src/validation/required-actions.js";
import { randomUUID } from "node:crypto";
import { FORMAT_VERSION } from "../../../../services/kit/src/realm-transfer/document-format.js";
import type { Problem } from "../../../../services/kit/src/realm-transfer/document-schema.js";
import { KEYCLOAK_BUILTIN_CLIENTS, convertClients, convertScopes, type Note } from "./keycloak-clients.js";
import { keycloakOtp, keycloakPassword } from "./keycloak-credentials.js";
import { KEYCLOAK_PASSWORDLESS_FIELDS, keycloakSettings } from "./keycloak-settings.js";
import { FLOW_BINDINGS, clientFlowOverrides, convertFlows, flowBindings } from "./keycloak-flows.js";
import { identityProviderMappers } from "./keycloak-idp-mappers.js";

type Json = Record<string, any>;
type RoleRefs = { realmRoles: string[]; clientRoles: Record<string, string[]> };

/** A Keycloak realm representation names its realm in a string `realm`; Tessera's document holds an object there. */
export function isKeycloakRealm(body: object): boolean {
  const b = body as Json;
  return typeof b.realm === "string" && b.formatVersion === undefined;
}

/** Top-level keys the conversion reads; every other key with a value is reported. */
const CONSUMED = new Set([
  "id", "realm", "displayName", "displayNameHtml", "enabled", "accessTokenLifespan", "ssoSessionIdleTimeout", "ssoSessionMaxLifespan",
  "offlineSessionIdleTimeout", "smtpServer", "passwordPolicy", "bruteForceProtected", "permanentLockout", "maxTemporaryLockouts",
  "failureFactor", "waitIncrementSeconds", "maxFailureWaitSeconds", "maxDeltaTimeSeconds", "registrationAllowed", "verifyEmail", "organizationsEnabled",
  "eventsEnabled", "eventsExpiration", "adminEventsEnabled", "roles", "groups", "users", "clients", "clientScopes",
  "identityProviders", "components", "authenticationFlows", "authenticatorConfig", "requiredActions", "keycloakVersion",
  "otpPolicyType", "otpPolicyAlgorithm", "otpPolicyDigits", "otpPolicyPeriod", "defaultRole", "loginTheme", "accountTheme", "emailTheme",
  "defaultDefaultClientScopes", "defaultOptionalClientScopes", "identityProviderMappers", "editUsernameAllowed", "resetPasswordAllowed", ...FLOW_BINDINGS,
  ...Object.keys(KEYCLOAK_PASSWORDLESS_FIELDS), "actionTokenGeneratedByAdminLifespan", "actionTokenGeneratedByUserLifespan",
  "internationalizationEnabled", "supportedLocales", "defaultLocale", "localizationTexts",
  "rememberMe", "ssoSessionIdleTimeoutRememberMe", "ssoSessionMaxLifespanRememberMe",
]);

/**
 * A Keycloak realm representation (kc.sh export's realm-export.json, Keycloak 26) as Tessera's
 * realm document. What Tessera has no equivalent for is pushed to `report`, each with its JSON
 * path in the Keycloak document: nothing is dropped silently. Ids are kept.
 */
export function fromKeycloak(kc: Json, report: Problem[]): unknown {
  const note: Note = (path, message) => report.push({ path, message });
  const otpPolicyOk = (kc.otpPolicyType ?? "totp") === "totp" && (kc.otpPolicyAlgorithm ?? "HmacSHA1") === "HmacSHA1"
    && Number(kc.otpPolicyDigits ?? 6) === 6 && Number(kc.otpPolicyPeriod ?? 30) === 30;
  if (!otpPolicyOk) note("$.otpPolicyType", "the realm's OTP policy differs from Tessera's TOTP (6 digits, 30 s, HMAC-SHA1): OTP credentials are not carried over");

  const clientScopes = convertScopes(kc, note);
  const { clients, samlServiceProviders } = convertClients(kc, clientScopes, note);
  const clientIds = new Set(clients.map((c) => c.clientId as string));
  const roles = new Roles(kc, clientIds, note);
  const flows = convertFlows(kc, clientIds, note);
  (kc.clients ?? []).forEach((c: Json, i: number) => {
    const client = clients.find((x) => x.clientId === c.clientId);
    if (client) Object.assign(client, clientFlowOverrides(c, `$.clients[${i}]`, flows, note));
  });
  for (const c of clients) c.roles = roles.clientRolesOf(c.clientId);

  const idps = identityProviders(kc, note);
  const ldap = ldapProviders(kc, note);
  const aliases = new Set(idps.map((x) => x.alias as string));
  const ldapIds = new Set(ldap.map((x) => x.id as string));
  const users: Json[] = [];
  (kc.users ?? []).forEach((u: Json, i: number) => {
    const p = `$.users[${i}]`;
    if (typeof u.federationLink === "string" && ldapIds.has(u.federationLink)) {
      // Tessera links an LDAP user by its entry (federated-users.ts): a plain local copy without
      // a password would hold the username and make the provider's sync refuse the entry.
      note(p, `user "${u.username}" comes from the LDAP provider "${u.federationLink}": not imported; the provider's sync or the user's first login brings it back (its roles and groups are set again in Tessera)`);
      return;
    }
    if (typeof u.serviceAccountClientId === "string") {
      const client = clients.find((c) => c.clientId === u.serviceAccountClientId);
      if (client) client.serviceAccount = { id: u.id ?? randomUUID(), username: `service-account-${client.clientId}`, ...roles.flatten(u, p) };
      else note(p, `service account of a client not carried over ("${u.serviceAccountClientId}")`);
      return;
    }
    users.push(user(u, p, roles, otpPolicyOk, aliases, note));
  });
  for (const c of clients) {
    if (c.grantTypes.includes("client_credentials") && !c.serviceAccount) {
      c.serviceAccount = { id: randomUUID(), username: `service-account-${c.clientId}`, realmRoles: [], clientRoles: {} };
    }
  }

  const groups = (list: Json[], path: string): Json[] => list.map((g, i) => {
    const p = `${path}[${i}]`;
    const attributes = keycloakAttributes(g.attributes, p, note);
    return {
      id: g.id ?? randomUUID(), name: String(g.name),
      ...(typeof g.description === "string" && g.description !== "" ? { description: g.description } : {}),
      ...(Object.keys(attributes).length ? { attributes } : {}), ...roles.flatten(g, p),
      subGroups: groups(g.subGroups ?? [], `${p}.subGroups`),
    };
  });

  (kc.requiredActions ?? []).forEach((a: Json, i: number) => note(`$.requiredActions[${i}]`, `required-action provider "${a.alias}" has no equivalent`));
  const idpMappers = identityProviderMappers(kc, aliases, note);
  for (const [key, value] of Object.entries(kc)) {
    if (!CONSUMED.has(key) && !emptyValue(value)) note(`$.${key}`, `"${key}" has no equivalent`);
  }

  return {
    formatVersion: FORMAT_VERSION,
    realm: { ...keycloakSettings(kc, note), ...flowBindings(kc, flows, note) },
    roles: roles.realmRoles(),
    clientScopes,
    clients,
    groups: groups(kc.groups ?? [], "$.groups"),
    ...(flows.flows.length ? { authenticationFlows: flows.flows } : {}),
    identityProviders: idps,
    ...(idpMappers.length ? { identityProviderMappers: idpMappers } : {}),
    userFederationProviders: ldap,
    samlServiceProviders,
    ...(kc.users ? { users } : {}),
  };
}

function user(u: Json, p: string, roles: Roles, otpPolicyOk: boolean, aliases: Set<string>, note: Note): Json {
  const credentials: Json[] = [];
  (u.credentials ?? []).forEach((c: Json, j: number) => {
    const cp = `${p}.credentials[${j}]`;
    if ((c.type ?? "password") === "password") {
      const pw = keycloakPassword(c, cp, note);
      if (pw && !credentials.some((x) => x.type === "password")) credentials.push({ type: "password", ...pw });
    } else if (c.type === "otp") {
      const otp = keycloakOtp(c, cp, otpPolicyOk, note);
      if (otp && !credentials.some((x) => x.type === "totp")) credentials.push({ type: "totp", ...otp });
    } else note(cp, `credential type "${c.type}" has no equivalent`);
  });
  const actions: string[] = u.requiredActions ?? [];
  // The five Tessera's login runs are carried (kit/validation/required-actions.ts); others are reported.
  actions.filter((a) => !isUserRequiredAction(a)).forEach((a) => note(`${p}.requiredActions`, `required action "${a}" has no equivalent`));
  const carried = orderedActions(actions.filter(isUserRequiredAction));
  const attributes = keycloakAttributes(u.attributes, p, note);
  const federatedIdentities: Json[] = [];
  (u.federatedIdentities ?? []).forEach((l: Json, j: number) => {
    if (aliases.has(String(l.identityProvider))) {
      federatedIdentities.push({ identityProvider: String(l.identityProvider), userId: String(l.userId), userName: String(l.userName ?? "") });
    } else note(`${p}.federatedIdentities[${j}]`, `link to identity provider "${l.identityProvider}", which is not carried over`);
  });
  return {
    id: u.id ?? randomUUID(), username: String(u.username), email: String(u.email ?? ""),
    firstName: String(u.firstName ?? ""), lastName: String(u.lastName ?? ""), enabled: u.enabled !== false,
    emailVerified: u.emailVerified === true, requirePasswordReset: actions.includes("UPDATE_PASSWORD") || credentials.some((c) => c.temporary === true),
    ...(carried.length ? { requiredActions: carried } : {}),
    ...(Object.keys(attributes).length ? { attributes } : {}),
    createdAt: typeof u.createdTimestamp === "number" ? u.createdTimestamp : 0,
    credentials, ...roles.flatten(u, p),
    groups: (u.groups ?? []).map(String), federatedIdentities,
  };
}

/**
 * Realm and client roles, composites kept as composites (Tessera runs them as Keycloak does, so
 * `default-roles-<realm>` stays the composite its users hold). A holder keeps the roles it was
 * given directly. Roles of clients not carried over are left out of holders and composites, and
 * noted unless the client is one of Keycloak's built-in ones.
 */
class Roles {
  private readonly roles: Json;

  constructor(kc: Json, private readonly clientIds: Set<string>, private readonly note: Note) {
    this.roles = (kc.roles ?? {}) as Json;
  }

  realmRoles(): Json[] {
    return (this.roles.realm ?? []).map((r: Json, i: number) => this.role(r, `$.roles.realm[${i}]`));
  }

  clientRolesOf(clientId: string): Json[] {
    return ((this.roles.client ?? {})[clientId] ?? []).map((r: Json, i: number) => this.role(r, `$.roles.client["${clientId}"][${i}]`));
  }

  /** A holder's (user, group, service account) realm and client roles. */
  flatten(holder: Json, path: string): RoleRefs {
    const out: RoleRefs = { realmRoles: [...new Set<string>((holder.realmRoles ?? []).map(String))].sort(), clientRoles: {} };
    for (const [cid, names] of Object.entries((holder.clientRoles ?? {}) as Record<string, string[]>)) {
      if (this.clientIds.has(cid)) out.clientRoles[cid] = [...new Set(names.map(String))].sort();
      else if (!KEYCLOAK_BUILTIN_CLIENTS.has(cid)) this.note(`${path}.clientRoles["${cid}"]`, `roles of client "${cid}", which is not carried over`);
    }
    return out;
  }

  private role(r: Json, path: string): Json {
    const composites = r.composite === true && r.composites
      ? this.flatten({ realmRoles: r.composites.realm ?? [], clientRoles: r.composites.client ?? {} }, `${path}.composites`)
      : undefined;
    const any = composites && (composites.realmRoles.length > 0 || Object.keys(composites.clientRoles).length > 0);
    return { id: r.id ?? randomUUID(), name: String(r.name), ...(r.description ? { description: String(r.description) } : {}), ...(any ? { composites } : {}) };
  }
}

/** Keycloak provider ids Tessera's broker runs, as its provider types. */
/** A user's or group's attributes (Keycloak: name -> list of strings); names Tessera refuses are reported. */
function keycloakAttributes(from: unknown, p: string, note: Note): Record<string, string[]> {
  const attributes: Record<string, string[]> = {};
  for (const [k, v] of Object.entries((from ?? {}) as Json)) {
    if (/^[A-Za-z_][A-Za-z0-9_-]{0,254}$/.test(k)) attributes[k] = (Array.isArray(v) ? v : [v]).map(String);
    else note(`${p}.attributes["${k}"]`, "attribute names are letters, digits, _ and - in Tessera");
  }
  return attributes;
}

const IDP_TYPES: Readonly<Record<string, string>> = { oidc: "oidc", "keycloak-oidc": "oidc", google: "google", github: "github" };

function identityProviders(kc: Json, note: Note): Json[] {
  const out: Json[] = [];
  (kc.identityProviders ?? []).forEach((idp: Json, i: number) => {
    const p = `$.identityProviders[${i}]`;
    const type = IDP_TYPES[String(idp.providerId ?? "oidc")];
    if (!type) {
      note(p, `identity provider "${idp.alias}" (${idp.providerId}) has no equivalent: Tessera brokers OpenID Connect, Google and GitHub`);
      return;
    }
    const c = (idp.config ?? {}) as Json;
    const secret = typeof c.clientSecret === "string" && !/^\*+$/.test(c.clientSecret) && !c.clientSecret.startsWith("${vault.") ? c.clientSecret : undefined;
    // Without one (masked, a vault reference) the broker's import notes it, as for any document.
    const str = (k: string) => (typeof c[k] === "string" && c[k] !== "" ? { [k === "userInfoUrl" ? "userinfoUrl" : k === "defaultScope" ? "defaultScopes" : k]: String(c[k]) } : {});
    out.push({
      id: typeof idp.internalId === "string" ? idp.internalId : randomUUID(),
      alias: String(idp.alias), displayName: String(idp.displayName ?? ""), providerType: type, enabled: idp.enabled !== false,
      clientId: String(c.clientId ?? ""), ...(secret ? { clientSecret: secret } : {}),
      ...str("authorizationUrl"), ...str("tokenUrl"), ...str("userInfoUrl"), ...str("jwksUrl"), ...str("issuer"), ...str("defaultScope"),
      trustEmail: idp.trustEmail === true, syncUserProfile: (c.syncMode ?? "") === "FORCE", loginHint: c.loginHint === "true",
    });
  });
  return out;
}

function ldapProviders(kc: Json, note: Note): Json[] {
  const components = (kc.components ?? {}) as Record<string, Json[]>;
  const out: Json[] = [];
  for (const [type, list] of Object.entries(components)) {
    list.forEach((comp, i) => {
      const p = `$.components["${type}"][${i}]`;
      if (type !== "org.keycloak.storage.UserStorageProvider" || comp.providerId !== "ldap") {
        note(p, `component "${comp.name}" (${comp.providerId}) has no equivalent${type === "org.keycloak.keys.KeyProvider" ? ": Keycloak's realm keys are not carried over, tokens it issued stop verifying" : ""}`);
        return;
      }
      const c = (k: string) => (Array.isArray(comp.config?.[k]) ? String(comp.config[k][0]) : undefined);
      const bind = c("bindCredential");
      // Without one (masked) the federation service's import notes it, as for any document.
      if (comp.subComponents && Object.keys(comp.subComponents).length) note(`${p}.subComponents`, "LDAP mappers have no equivalent; Tessera maps uid, mail, givenName and sn");
      out.push({
        id: comp.id ?? randomUUID(), name: String(comp.name), providerType: "ldap", enabled: c("enabled") !== "false",
        priority: Number(c("priority") ?? 0), connectionUrl: c("connectionUrl") ?? "", bindDn: c("bindDn") ?? "",
        ...(bind && !/^\*+$/.test(bind) ? { bindCredential: bind } : {}), usersDn: c("usersDn") ?? "",
        userObjectClass: (c("userObjectClasses") ?? "inetOrgPerson").split(",")[0]!.trim(), usernameLdapAttr: c("usernameLDAPAttribute") ?? "uid",
        ...(c("uuidLDAPAttribute") ? { uuidLdapAttr: c("uuidLDAPAttribute") } : {}),
        syncMode: c("editMode") === "WRITABLE" || c("importEnabled") !== "false" ? "IMPORT" : "READ_ONLY",
        syncPeriod: period(c("fullSyncPeriod"), `${p}.config.fullSyncPeriod`, note),
        changedSyncPeriod: period(c("changedSyncPeriod"), `${p}.config.changedSyncPeriod`, note),
        importEnabled: c("importEnabled") !== "false",
      });
    });
  }
  return out;
}

/** Tessera's longest sync period (the federation service's MAX_SYNC_PERIOD). */
const MAX_SYNC_PERIOD = 86_400;

/** A Keycloak sync period in seconds (-1: off) as Tessera's (0: off), at most a day. */
function period(value: string | undefined, path: string, note: Note): number {
  const n = Math.trunc(Number(value ?? -1));
  if (!Number.isFinite(n) || n <= 0) return 0;
  if (n > MAX_SYNC_PERIOD) {
    note(path, `sync period ${n} s shortened to ${MAX_SYNC_PERIOD} s, Tessera's longest`);
    return MAX_SYNC_PERIOD;
  }
  return n;
}

function emptyValue(v: unknown): boolean {
  return v === null || v === undefined || v === false || v === "" || (Array.isArray(v) && v.length === 0)
    || (typeof v === "object" && !Array.isArray(v) && Object.keys(v as object).length === 0);
}
