import { createHmac } from "node:crypto";
import { decodeJwt } from "jose";
import { adminApi, http, uniqueName } from "./support/http.js";
import { targets } from "./support/targets.js";
import type { TestServer } from "./support/embedded-server.js";
import { BrowserSession, parseForms } from "./support/browser-session.js";
import { keycloakRealmExport, type KeycloakUserSpec } from "./fixtures/keycloak-realm.js";
import { exportSchemaProblems } from "./support/realm-export-schema.js";
import { recordResponses } from "./support/http.js";
import { expectResponsesDocumented } from "./support/openapi-check.js";

// Every response this file receives is checked against the OpenAPI document at its end.
const recorded = recordResponses();

/**
 * Keycloak's TOTP as Keycloak computes it (RFC 6238 with HMAC-SHA1): the key is the UTF-8 bytes
 * of the stored secret, never a base32 decoding of it. Written here, not taken from Tessera.
 */
function keycloakTotp(secret: string, epochMs: number): string {
  const msg = Buffer.alloc(8);
  msg.writeBigUInt64BE(BigInt(Math.floor(epochMs / 30_000)));
  const mac = createHmac("sha1", Buffer.from(secret, "utf8")).update(msg).digest();
  const off = mac[19]! & 15;
  return String((mac.readUInt32BE(off) & 0x7fffffff) % 1_000_000).padStart(6, "0");
}

// Migration from Keycloak (spec 1.9, 4.1; DESIGN 5 on imported hashes): a realm-export.json of
// Keycloak 26 goes through POST /admin/realms/import; its users log in with their Keycloak
// passwords (password grant and login page) and are re-hashed to argon2id on that login.
describe.each(targets())("Keycloak realm migration ($mode)", (target) => {
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;
  let realm: string;
  let imported: { status: number; body: any };
  const CB = "http://localhost:3997/cb";
  const OTP_SECRET = "kc-otp-secret-20chrs";
  const users: KeycloakUserSpec[] = [
    { username: "sha512", password: "Sha512-password", algorithm: "pbkdf2-sha512" },
    { username: "sha256", password: "Sha256-password", algorithm: "pbkdf2-sha256" },
    { username: "argon", password: "Argon2-password", algorithm: "argon2", otpSecret: OTP_SECRET },
  ];

  beforeAll(async () => {
    server = await target.start("keycloak-migration");
    api = adminApi(server.url, server.apiKey);
    realm = uniqueName("acme");
    imported = await api.post("/admin/realms/import", await keycloakRealmExport(realm, users, CB));
  }, 90_000);
  afterAll(async () => server?.stop());

  const tokenUrl = () => `${server.url}/realms/${realm}/protocol/openid-connect/token`;
  const storedHash = async (username: string): Promise<string> => {
    const doc = (await api.get(`/admin/realms/${realm}/export?includeUsers=true`)).body;
    return doc.users.find((u: { username: string }) => u.username === username).credentials.find((c: { type: string }) => c.type === "password").passwordHash;
  };

  it("imports the realm (201) and reports, each with its path, what has no equivalent", async () => {
    expect(imported.status).toBe(201);
    expect(imported.body).toMatchObject({
      name: realm, displayName: "Acme (from Keycloak)", accessTokenLifespan: 600, refreshTokenLifespan: 3600, ssoSessionMaxLifespan: 72_000,
      rememberMe: true, ssoSessionIdleTimeoutRememberMe: 86_400, ssoSessionMaxLifespanRememberMe: 1_209_600,
      passwordMinLength: 8, passwordRequireUppercase: true, passwordRequireDigits: true, passwordHistoryCount: 3,
      bruteForceEnabled: true, maxLoginFailures: 5, lockoutDuration: 120, failureResetTime: 43_200,
      smtpHost: "smtp.acme.test", smtpPort: 2525, smtpUser: "mailer", smtpFrom: "noreply@acme.test", smtpPassword: "**********",
      requireEmailVerification: true, eventsEnabled: true, eventsExpiration: 86_400, resetPasswordAllowed: true,
    });
    const report = imported.body.importReport as Array<{ path: string; message: string }>;
    const at = (path: string) => report.filter((r) => r.path === path).map((r) => r.message);
    // Keycloak's own flows are Tessera's built-ins; a custom one without an equivalent step is reported whole.
    expect(at("$.authenticationFlows[0]")).toEqual([]);
    expect(at("$.authenticationFlows[1].authenticationExecutions[0]")).toEqual(['authentication flow "acme custom login" is not carried over: authenticator "auth-x509-client-username-form" has no equivalent step']);
    expect(at("$.authenticationFlows[6].authenticationExecutions[1]")).toEqual(['the deny step\'s message "Managers use the web app" is not carried over: Tessera shows "Access denied."']);
    expect(at("$.resetCredentialsFlow")).toEqual(['"resetCredentialsFlow" ("acme reset") has no equivalent: Tessera\'s reset credentials is built in']);
    expect(at("$.registrationFlow")).toEqual([]);
    // "Remember me" and its lifespans are carried over, so not reported.
    expect(["$.rememberMe", "$.ssoSessionIdleTimeoutRememberMe", "$.ssoSessionMaxLifespanRememberMe"].flatMap(at)).toEqual([]);
    expect(at("$.requiredActions[0]")).toEqual([expect.stringContaining("CONFIGURE_TOTP")]);
    expect(at("$.clients[2].authorizationSettings")).toEqual([expect.stringContaining("fine-grained authorization")]);
    expect(at("$.clients[1].protocolMappers[1]")).toEqual([expect.stringContaining("oidc-usersessionmodel-note-mapper")]);
    expect(at('$.clientScopes[1].protocolMappers[0].config["user.attribute"]')).toEqual([expect.stringContaining("no equivalent")]);
    expect(at("$.clientScopes[4]")).toEqual([expect.stringContaining("SAML client scope")]);
    // Composite roles are carried as composites: nothing to report of them.
    expect(at("$.roles.realm[4]")).toEqual([]);
    expect(at('$.clients[3].attributes["access.token.signed.response.alg"]')).toEqual(['signature algorithm "HS256" is not supported: the realm\'s algorithm is used']);
    expect(at("$.clients[1].redirectUris[1]")).toEqual([expect.stringContaining("matches redirect URIs exactly")]);
    expect(at('$.passwordPolicy["notUsername(undefined)"]')).toEqual([expect.stringContaining("notUsername")]);
    expect(at("$.identityProviders[0]")).toEqual([]);
    expect(at("$.identityProviders[1]")).toEqual([expect.stringContaining('identity provider "legacy-saml" (saml) has no equivalent')]);
    // A mapper of a supported type without its config does nothing in Keycloak either: reported, not carried.
    expect(at("$.identityProviderMappers[0]")).toEqual(['identity provider mapper "dept" is not carried over: config "claim", "user.attribute" is empty']);
    expect(at("$.users[0].federatedIdentities[0]")).toEqual([]);
    expect(at("$.users[0].federatedIdentities[1]")).toEqual([expect.stringContaining('"legacy-saml", which is not carried over')]);
    expect(at(`$.users[${users.length}]`)).toEqual([expect.stringContaining('user "ldap-user" comes from the LDAP provider')]);
    expect(at('$.components["org.keycloak.storage.UserStorageProvider"][0].subComponents')).toEqual([expect.stringContaining("LDAP mappers")]);
    expect(at('$.components["org.keycloak.storage.UserStorageProvider"][0].config.fullSyncPeriod')).toEqual(["sync period 604800 s shortened to 86400 s, Tessera's longest"]);
    expect(at("$.webAuthnPolicyRpEntityName")).toEqual([expect.stringContaining("no equivalent")]);
    // The passwordless policy is Tessera's passkey policy, carried under the same names.
    expect(report.filter((r) => r.path.startsWith("$.webAuthnPolicyPasswordless"))).toEqual([]);
    expect(imported.body).toMatchObject({
      webAuthnPolicyPasswordlessRpEntityName: "keycloak", webAuthnPolicyPasswordlessSignatureAlgorithms: ["ES256", "RS256"],
      webAuthnPolicyPasswordlessRpId: "", webAuthnPolicyPasswordlessAttestationConveyancePreference: "not specified",
      webAuthnPolicyPasswordlessAuthenticatorAttachment: "not specified", webAuthnPolicyPasswordlessRequireResidentKey: "Yes",
      webAuthnPolicyPasswordlessUserVerificationRequirement: "required", webAuthnPolicyPasswordlessCreateTimeout: 0,
      webAuthnPolicyPasswordlessAvoidSameAuthenticatorRegister: false, webAuthnPolicyPasswordlessAcceptableAaguids: [],
      webAuthnPolicyPasswordlessExtraOrigins: ["https://app.acme.test"],
    });
    expect(at('$.components["org.keycloak.keys.KeyProvider"][0]')).toEqual([expect.stringContaining("realm keys are not carried over")]);
    // Nothing secret comes back in the report.
    expect(JSON.stringify(imported.body)).not.toMatch(/idp-secret-from-kc|ldap-secret-from-kc|smtp-pw-from-kc|worker-secret-from-kc/);
  });

  it("carries users' required actions Tessera runs and reports the others", async () => {
    const r = uniqueName("kc-actions");
    const res = await api.post("/admin/realms/import", {
      realm: r, enabled: true,
      users: [{ username: "ivy", enabled: true, requiredActions: ["VERIFY_EMAIL", "webauthn-register", "UPDATE_PROFILE", "TERMS_AND_CONDITIONS", "UPDATE_PASSWORD", "CONFIGURE_TOTP"] }],
    });
    expect(res.status).toBe(201);
    expect((res.body.importReport as Array<{ path: string; message: string }>).filter((p) => p.path === "$.users[0].requiredActions"))
      .toEqual([{ path: "$.users[0].requiredActions", message: 'required action "webauthn-register" has no equivalent' }]);
    const ivy = (await api.get(`/admin/realms/${r}/users?username=ivy`)).body.users[0];
    expect([ivy.requiredActions, ivy.requirePasswordReset]).toEqual([["CONFIGURE_TOTP", "TERMS_AND_CONDITIONS", "UPDATE_PASSWORD", "UPDATE_PROFILE", "VERIFY_EMAIL"], true]);
    expect((await api.del(`/admin/realms/${r}`)).status).toBe(200);
  });

  it("creates the OIDC identity provider and the LDAP provider, and keeps the user's link to the IdP", async () => {
    const idps = await api.get(`/admin/realms/${realm}/identity-providers`);
    expect(idps.status).toBe(200);
    expect(idps.body).toEqual([{
      alias: "corp-oidc", displayName: "Corp SSO", providerType: "oidc", enabled: true, clientId: "tessera",
      authorizationUrl: "https://sso.corp.test/auth", tokenUrl: "https://sso.corp.test/token", issuer: "https://sso.corp.test",
      defaultScopes: "openid profile email", trustEmail: true, syncUserProfile: false, loginHint: false, clientSecretSet: true,
      createdAt: expect.any(String), updatedAt: expect.any(String),
    }]);
    const ldap = await api.get(`/admin/realms/${realm}/user-federation`);
    expect(ldap.status).toBe(200);
    expect(ldap.body).toEqual([{
      id: expect.any(String), name: "corp-ldap", providerType: "ldap", enabled: true, priority: 0,
      connectionUrl: "ldap://ldap.corp.test:389", bindDn: "cn=admin,dc=corp,dc=test", usersDn: "ou=people,dc=corp,dc=test",
      userObjectClass: "inetOrgPerson", usernameLdapAttr: "uid", uuidLdapAttr: "entryUUID", emailLdapAttr: "mail",
      firstNameLdapAttr: "givenName", lastNameLdapAttr: "sn", syncMode: "IMPORT", syncPeriod: 86_400, changedSyncPeriod: 3600,
      importEnabled: true, connectionTimeout: 10, vanishedUsers: "DISABLE", createdAt: expect.any(String), updatedAt: expect.any(String),
    }]);
    // The bind credential and the IdP secret are carried (the Keycloak file had them in clear).
    const doc = (await api.get(`/admin/realms/${realm}/export?includeUsers=true&includeSecrets=true`)).body;
    expect(doc.identityProviders[0].clientSecret).toBe("idp-secret-from-kc");
    expect(doc.userFederationProviders[0].bindCredential).toBe("ldap-secret-from-kc");
    const first = doc.users.find((u: { username: string }) => u.username === users[0]!.username);
    const links = await api.get(`/admin/realms/${realm}/users/${first.id}/federated-identity`);
    expect(links.body).toEqual([{ identityProvider: "corp-oidc", userId: `corp-sub-${users[0]!.username}`, userName: `${users[0]!.username}@corp`, createdAt: expect.any(String) }]);
    expect(doc.users.map((u: { username: string }) => u.username)).not.toContain("ldap-user");
  });

  it("maps clients, roles (composites kept), groups, scopes and SAML clients; the export is a valid document", async () => {
    const doc = (await api.get(`/admin/realms/${realm}/export?includeUsers=true`)).body;
    expect(exportSchemaProblems(doc)).toEqual([]);
    expect(doc.clients.map((c: { clientId: string }) => c.clientId).sort()).toEqual(["acme-api", "acme-cli", "acme-web", "acme-worker"]);
    const web = doc.clients.find((c: { clientId: string }) => c.clientId === "acme-web");
    expect(web).toMatchObject({ clientType: "PUBLIC", redirectUris: [CB], webOrigins: ["http://localhost:3997"], grantTypes: ["authorization_code", "refresh_token", "password"] });
    expect(web.defaultClientScopes).toEqual(["acme-web-dedicated", "profile", "roles", "web-origins"]);
    const worker = doc.clients.find((c: { clientId: string }) => c.clientId === "acme-worker");
    expect(worker).toMatchObject({ clientType: "CONFIDENTIAL", grantTypes: ["client_credentials"], backchannelLogoutSessionRequired: true,
      serviceAccount: { username: "service-account-acme-worker", realmRoles: [`default-roles-${realm}`, "viewer"], clientRoles: { "acme-api": ["read"] } } });
    expect([worker.requestObjectSignatureAlg, worker.requirePushedAuthorizationRequests, worker.jwks.keys[0].kid, worker.dpopBoundAccessTokens, worker.standardTokenExchangeEnabled]).toEqual(["any", true, "1", false, true]);
    expect([worker.idTokenSignedResponseAlg, worker.accessTokenSignedResponseAlg, web.idTokenSignedResponseAlg, web.accessTokenSignedResponseAlg]).toEqual(["PS256", "ES256", "", ""]);
    // Keycloak's "DPoP bound access tokens" switch (RFC 9449); an HS256 access token algorithm is noted and dropped.
    const apiClient = doc.clients.find((c: { clientId: string }) => c.clientId === "acme-api");
    expect([apiClient.dpopBoundAccessTokens, apiClient.accessTokenSignedResponseAlg]).toEqual([true, ""]);
    expect([web.requestObjectSignatureAlg, web.requirePushedAuthorizationRequests, web.jwks, web.dpopBoundAccessTokens, web.standardTokenExchangeEnabled]).toEqual(["", false, undefined, false, false]);
    expect(doc.groups[0]).toMatchObject({ name: "engineering", attributes: { costCenter: ["42"] }, realmRoles: ["viewer"], subGroups: [{ name: "leads", realmRoles: ["manager"], clientRoles: {} }] });
    expect(doc.groups[0].subGroups[0]).not.toHaveProperty("attributes");
    // Keycloak's composites stay composites; the built-in account client's roles go.
    const role = (name: string) => doc.roles.find((r: { name: string }) => r.name === name);
    expect(role("manager").composites).toEqual({ realmRoles: ["viewer"], clientRoles: { "acme-api": ["read"] } });
    expect(role(`default-roles-${realm}`).composites).toEqual({ realmRoles: ["offline_access", "uma_authorization"], clientRoles: {} });
    const argon = doc.users.find((u: { username: string }) => u.username === "argon");
    expect(argon).toMatchObject({ groups: ["/engineering/leads"], realmRoles: [`default-roles-${realm}`], attributes: { locale: ["en"] } });
    expect(doc.samlServiceProviders).toEqual([expect.objectContaining({ entityId: "https://sp.acme.test/saml", acsUrl: "https://sp.acme.test/saml/acs", nameIdFormat: "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress" })]);
    // The worker's Keycloak secret still authenticates it, and its token carries the flattened roles.
    const cc = await http("POST", tokenUrl(), { form: { grant_type: "client_credentials", client_id: "acme-worker", client_secret: "worker-secret-from-kc" } });
    expect(cc.status).toBe(200);
    const claims = decodeJwt(cc.body.access_token) as { realm_access: { roles: string[] }; resource_access: Record<string, { roles: string[] }> };
    expect([[...claims.realm_access.roles].sort(), claims.resource_access["acme-api"]?.roles])
      .toEqual([[`default-roles-${realm}`, "offline_access", "uma_authorization", "viewer"], ["read"]]);
  });

  it.each(users.filter((u) => !u.otpSecret))("logs $username ($algorithm) in with the Keycloak password by the password grant, then stores argon2id", async (u) => {
    expect(await storedHash(u.username)).toMatch(/^\$pbkdf2-sha(256|512)\$/);
    const res = await http("POST", tokenUrl(), { form: { grant_type: "password", client_id: "acme-web", username: u.username, password: u.password, scope: "openid" } });
    expect(res.status).toBe(200);
    // The client's own Keycloak mapper, carried over as its dedicated scope.
    expect(decodeJwt(res.body.access_token)).toMatchObject({ tenant: "acme", azp: "acme-web" });
    expect(await storedHash(u.username)).toMatch(/^\$argon2id\$/);
  });

  it.each(users.filter((u) => !u.otpSecret))("logs $username in through the login page too", async (u) => {
    const b = new BrowserSession(server.url);
    const auth = `${server.url}/realms/${realm}/protocol/openid-connect/auth?${new URLSearchParams({
      client_id: "acme-web", redirect_uri: CB, response_type: "code", scope: "openid", state: "st",
      code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM", code_challenge_method: "S256",
    })}`;
    const page = await b.get(auth);
    expect(parseForms(page.text)[0]!.fields.step).toBe("login");
    const done = await b.submit(page, { username: u.username, password: u.password });
    expect(done.status).toBe(302);
    expect(new URL(done.location).searchParams.get("code")).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it("keeps the Keycloak TOTP working (key = UTF-8 bytes of secretData.value) for the argon2 user, on both login paths", async () => {
    const argon = users.find((u) => u.otpSecret)!;
    expect(await storedHash("argon")).toMatch(/^\$argon2id\$v=19\$m=7168,t=5,p=1\$/);
    const missing = await http("POST", tokenUrl(), { form: { grant_type: "password", client_id: "acme-web", username: "argon", password: argon.password } });
    expect(missing.status).toBe(400);
    const ok = await http("POST", tokenUrl(), { form: { grant_type: "password", client_id: "acme-web", username: "argon", password: argon.password, totp: keycloakTotp(OTP_SECRET, Date.now()) } });
    expect(ok.status).toBe(200);
    // Keycloak's argon2 is argon2id already: verified in its own parameters, kept (DESIGN 5 re-hashes other formats).
    expect(await storedHash("argon")).toMatch(/^\$argon2id\$v=19\$m=7168,t=5,p=1\$/);
    const b = new BrowserSession(server.url);
    const auth = `${server.url}/realms/${realm}/protocol/openid-connect/auth?${new URLSearchParams({
      client_id: "acme-web", redirect_uri: CB, response_type: "code", scope: "openid", state: "st",
      code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM", code_challenge_method: "S256",
    })}`;
    const otpPage = await b.submit(await b.get(auth), { username: "argon", password: argon.password });
    expect(otpPage.status).toBe(200);
    // The next step's code (each step is accepted once).
    const done = await b.submit(otpPage, { otp: keycloakTotp(OTP_SECRET, Date.now() + 30_000) });
    expect(done.status).toBe(302);
    expect(new URL(done.location).searchParams.get("code")).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it("carries custom authentication flows over as Tessera flows, and a client's override runs its flow", async () => {
    const flows = (await api.get(`/admin/realms/${realm}/authentication/flows`)).body as Array<{ alias: string; builtIn: boolean; steps: unknown[] }>;
    expect(flows.map((f) => [f.alias, f.builtIn])).toEqual([["browser", true], ["direct grant", true], ["acme browser", false], ["acme direct grant", false]]);
    // auth-cookie and the redirector without a default provider go (Tessera always honours both); the DISABLED Kerberos step too.
    expect(flows.find((f) => f.alias === "acme browser")!.steps).toEqual([
      { type: "subflow", requirement: "ALTERNATIVE", steps: [
        { type: "username-password", requirement: "REQUIRED" },
        { type: "subflow", requirement: "CONDITIONAL", steps: [
          { type: "condition-user-configured", requirement: "REQUIRED" },
          { type: "otp", requirement: "REQUIRED" }] }] }]);
    expect(flows.find((f) => f.alias === "acme direct grant")!.steps).toEqual([
      { type: "username", requirement: "REQUIRED" },
      { type: "password", requirement: "REQUIRED" },
      { type: "subflow", requirement: "CONDITIONAL", steps: [
        { type: "condition-user-role", requirement: "REQUIRED", config: { role: "manager" } },
        { type: "deny", requirement: "REQUIRED" }] }]);
    // The realm keeps the built-in flows (its Keycloak bindings named Keycloak's own); the CLI client overrides its direct grant.
    expect((await api.get(`/admin/realms/${realm}`)).body).toMatchObject({ browserFlow: "browser", directGrantFlow: "direct grant" });
    expect((await api.get(`/admin/realms/${realm}/clients/acme-cli`)).body).toMatchObject({ directGrantFlowOverride: "acme direct grant" });
    const sha = users.find((u) => u.algorithm === "pbkdf2-sha256")!;
    const viaCli = await http("POST", tokenUrl(), { form: { grant_type: "password", client_id: "acme-cli", username: sha.username, password: sha.password } });
    expect([viaCli.status, viaCli.body.error, viaCli.body.error_description]).toEqual([400, "invalid_grant", "Access denied"]);
    const viaWeb = await http("POST", tokenUrl(), { form: { grant_type: "password", client_id: "acme-web", username: sha.username, password: sha.password } });
    expect(viaWeb.status).toBe(200);
  });

  it("detects the format by shape, or by ?format=keycloak; an existing realm is a 409", async () => {
    const again = await api.post("/admin/realms/import?format=keycloak", await keycloakRealmExport(realm, [], CB));
    expect(again.status).toBe(409);
    // A capitalised Keycloak realm name is lowercased (and reported); one that is no slug at all is refused.
    const upper = await api.post("/admin/realms/import", { ...await keycloakRealmExport(`${realm}-Upper`, [], CB) });
    expect(upper.status).toBe(201);
    expect(upper.body.name).toBe(`${realm}-upper`);
    expect(upper.body.importReport).toEqual(expect.arrayContaining([{ path: "$.realm", message: `realm name "${realm}-Upper" became "${realm}-upper": Tessera's realm names are lowercase` }]));
    const bad = await api.post("/admin/realms/import?format=keycloak", { realm: "Not A Slug!" });
    expect(bad.status).toBe(400);
    expect(bad.body.problems).toEqual(expect.arrayContaining([expect.objectContaining({ path: "$.realm.name" })]));
  });
});

describe("the responses of this file", () => {
  it("match the OpenAPI document (status, media type, body schema)", () => {
    expect(expectResponsesDocumented(recorded)).toBeGreaterThan(0);
  });
});
