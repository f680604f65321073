import { adminApi, recordResponses, uniqueName } from "./support/http.js";
import { startEmbeddedServer, type TestServer } from "./support/embedded-server.js";
import { exportSchemaProblems } from "./support/realm-export-schema.js";
import { expectResponsesDocumented } from "./support/openapi-check.js";

const recorded = recordResponses();

/** What a realm that never set the policy reads: the options Tessera's passkeys always had. */
const DEFAULTS = {
  webAuthnPolicyPasswordlessRpEntityName: "",
  webAuthnPolicyPasswordlessSignatureAlgorithms: ["Ed25519", "ES256", "RS256"],
  webAuthnPolicyPasswordlessRpId: "",
  webAuthnPolicyPasswordlessAttestationConveyancePreference: "none",
  webAuthnPolicyPasswordlessAuthenticatorAttachment: "not specified",
  webAuthnPolicyPasswordlessRequireResidentKey: "Yes",
  webAuthnPolicyPasswordlessUserVerificationRequirement: "preferred",
  webAuthnPolicyPasswordlessCreateTimeout: 120,
  webAuthnPolicyPasswordlessAvoidSameAuthenticatorRegister: true,
  webAuthnPolicyPasswordlessAcceptableAaguids: [],
  webAuthnPolicyPasswordlessExtraOrigins: [],
};

/** Every field set away from its default, with Keycloak's spellings. */
const POLICY = {
  webAuthnPolicyPasswordlessRpEntityName: "Acme Corp",
  webAuthnPolicyPasswordlessSignatureAlgorithms: ["ES256", "RS256", "ES512"],
  webAuthnPolicyPasswordlessRpId: "example.com",
  webAuthnPolicyPasswordlessAttestationConveyancePreference: "direct",
  webAuthnPolicyPasswordlessAuthenticatorAttachment: "cross-platform",
  webAuthnPolicyPasswordlessRequireResidentKey: "not specified",
  webAuthnPolicyPasswordlessUserVerificationRequirement: "required",
  webAuthnPolicyPasswordlessCreateTimeout: 300,
  webAuthnPolicyPasswordlessAvoidSameAuthenticatorRegister: false,
  webAuthnPolicyPasswordlessAcceptableAaguids: ["cb69481e-8ff7-4039-93ec-0a2729a154a8"],
  webAuthnPolicyPasswordlessExtraOrigins: ["https://app.example.com", "android:apk-key-hash:Q1Ffd0yF9g"],
};

const policyOf = (realm: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(realm).filter(([k]) => k.startsWith("webAuthnPolicyPasswordless")));

// Keycloak's WebAuthn Passwordless Policy as realm fields (docs/passkeys.md): the Admin API
// representation, its checks, and the realm export and import.
describe("the realm's WebAuthn passwordless policy in the Admin API", () => {
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;

  beforeAll(async () => {
    server = await startEmbeddedServer("passkey-policy-admin");
    api = adminApi(server.url, server.apiKey);
  }, 120_000);
  afterAll(async () => server?.stop());

  it("reads Tessera's defaults on a realm that never set it; takes every field on create and update", async () => {
    const plain = uniqueName("wa-plain");
    const created = await api.post("/admin/realms", { name: plain });
    expect(created.status).toBe(201);
    expect(policyOf(created.body)).toEqual(DEFAULTS);

    const name = uniqueName("wa-set");
    const full = await api.post("/admin/realms", { name, ...POLICY });
    expect(full.status).toBe(201);
    expect(policyOf(full.body)).toEqual(POLICY);
    expect(policyOf((await api.get(`/admin/realms/${name}`)).body)).toEqual(POLICY);

    // PUT is partial: a list not named stays; one named replaces, an empty one clears it.
    const one = await api.put(`/admin/realms/${name}`, { webAuthnPolicyPasswordlessUserVerificationRequirement: "discouraged" });
    expect(one.status).toBe(200);
    expect(policyOf(one.body)).toEqual({ ...POLICY, webAuthnPolicyPasswordlessUserVerificationRequirement: "discouraged" });
    const cleared = await api.put(`/admin/realms/${name}`, { webAuthnPolicyPasswordlessExtraOrigins: [], webAuthnPolicyPasswordlessAcceptableAaguids: [] });
    expect(cleared.status).toBe(200);
    expect(policyOf((await api.get(`/admin/realms/${name}`)).body)).toEqual({
      ...POLICY, webAuthnPolicyPasswordlessUserVerificationRequirement: "discouraged",
      webAuthnPolicyPasswordlessExtraOrigins: [], webAuthnPolicyPasswordlessAcceptableAaguids: [],
    });
  }, 60_000);

  it.each<[Record<string, unknown>, Record<string, string>]>([
    [{ webAuthnPolicyPasswordlessUserVerificationRequirement: "always" }, { error: "invalid_request", field: "webAuthnPolicyPasswordlessUserVerificationRequirement",
      message: "webAuthnPolicyPasswordlessUserVerificationRequirement must be one of \"not specified\", \"required\", \"preferred\", \"discouraged\"" }],
    [{ webAuthnPolicyPasswordlessRequireResidentKey: "yes" }, { error: "invalid_request", field: "webAuthnPolicyPasswordlessRequireResidentKey",
      message: "webAuthnPolicyPasswordlessRequireResidentKey must be one of \"not specified\", \"Yes\", \"No\"" }],
    [{ webAuthnPolicyPasswordlessAttestationConveyancePreference: "enterprise" }, { error: "invalid_request", field: "webAuthnPolicyPasswordlessAttestationConveyancePreference",
      message: "webAuthnPolicyPasswordlessAttestationConveyancePreference must be one of \"not specified\", \"none\", \"indirect\", \"direct\"" }],
    [{ webAuthnPolicyPasswordlessAuthenticatorAttachment: "usb" }, { error: "invalid_request", field: "webAuthnPolicyPasswordlessAuthenticatorAttachment",
      message: "webAuthnPolicyPasswordlessAuthenticatorAttachment must be one of \"not specified\", \"platform\", \"cross-platform\"" }],
    [{ webAuthnPolicyPasswordlessSignatureAlgorithms: [] }, { error: "invalid_request", field: "webAuthnPolicyPasswordlessSignatureAlgorithms",
      message: "webAuthnPolicyPasswordlessSignatureAlgorithms must name at least one algorithm" }],
    [{ webAuthnPolicyPasswordlessSignatureAlgorithms: ["ES256", "HS256"] }, { error: "invalid_request", field: "webAuthnPolicyPasswordlessSignatureAlgorithms[1]",
      message: "webAuthnPolicyPasswordlessSignatureAlgorithms[1] must be one of ES256, ES384, ES512, RS256, RS384, RS512, RS1, Ed25519" }],
    [{ webAuthnPolicyPasswordlessRpId: "https://example.com" }, { error: "invalid_request", field: "webAuthnPolicyPasswordlessRpId",
      message: "webAuthnPolicyPasswordlessRpId must be a hostname" }],
    [{ webAuthnPolicyPasswordlessCreateTimeout: 31_537 }, { error: "invalid_request", field: "webAuthnPolicyPasswordlessCreateTimeout",
      message: "webAuthnPolicyPasswordlessCreateTimeout must be an integer between 0 and 31536" }],
    [{ webAuthnPolicyPasswordlessAcceptableAaguids: ["yubikey"] }, { error: "invalid_request", field: "webAuthnPolicyPasswordlessAcceptableAaguids[0]",
      message: "webAuthnPolicyPasswordlessAcceptableAaguids[0] must be an AAGUID (a UUID such as 2fc0579f-8113-47ea-b116-bb5a8db9202a)" }],
    [{ webAuthnPolicyPasswordlessExtraOrigins: ["https://app.example.com/login"] }, { error: "invalid_request", field: "webAuthnPolicyPasswordlessExtraOrigins[0]",
      message: "webAuthnPolicyPasswordlessExtraOrigins[0] must be an origin (scheme://host[:port], or an app origin such as android:apk-key-hash:...)" }],
    [{ webAuthnPolicyPasswordlessCreateTimeout: 1.5 }, { error: "invalid_field", field: "webAuthnPolicyPasswordlessCreateTimeout",
      message: "webAuthnPolicyPasswordlessCreateTimeout must be an integer" }],
    [{ webAuthnPolicyPasswordlessAvoidSameAuthenticatorRegister: "true" }, { error: "invalid_field", field: "webAuthnPolicyPasswordlessAvoidSameAuthenticatorRegister",
      message: "webAuthnPolicyPasswordlessAvoidSameAuthenticatorRegister must be a boolean" }],
    [{ webAuthnPolicyPasswordlessExtraOrigins: "https://app.example.com" }, { error: "invalid_field", field: "webAuthnPolicyPasswordlessExtraOrigins",
      message: "webAuthnPolicyPasswordlessExtraOrigins must be an array" }],
    [{ webAuthnPolicyPasswordlessSignatureAlgorithmsPresent: true }, { error: "unknown_field", field: "webAuthnPolicyPasswordlessSignatureAlgorithmsPresent",
      message: "unknown or read-only field: webAuthnPolicyPasswordlessSignatureAlgorithmsPresent" }],
  ])("refuses %j with a 400 naming the field, on create and on update", async (fields, body) => {
    const name = uniqueName("wa-bad");
    const created = await api.post("/admin/realms", { name, ...fields });
    expect([created.status, created.body]).toEqual([400, body]);
    expect((await api.post("/admin/realms", { name })).status).toBe(201);
    const updated = await api.put(`/admin/realms/${name}`, fields);
    expect([updated.status, updated.body]).toEqual([400, body]);
    expect(policyOf((await api.get(`/admin/realms/${name}`)).body)).toEqual(DEFAULTS);
  });

  it("carries the policy through the realm export and import", async () => {
    const name = uniqueName("wa-xfer");
    expect((await api.post("/admin/realms", { name, ...POLICY })).status).toBe(201);
    const exported = await api.get(`/admin/realms/${name}/export`);
    expect(exported.status).toBe(200);
    expect(policyOf(exported.body.realm)).toEqual(POLICY);
    expect(exportSchemaProblems(exported.body)).toEqual([]);

    expect((await api.del(`/admin/realms/${name}`)).status).toBe(200);
    const imported = await api.post("/admin/realms/import", exported.body);
    expect(imported.status).toBe(201);
    expect(policyOf((await api.get(`/admin/realms/${name}`)).body)).toEqual(POLICY);

    // A document from before the policy (no such fields) imports with the defaults; a bad value is refused with its path.
    const old = structuredClone(exported.body);
    for (const k of Object.keys(POLICY)) delete old.realm[k];
    expect((await api.post("/admin/realms/import?overwrite=true", old)).status).toBe(201);
    expect(policyOf((await api.get(`/admin/realms/${name}`)).body)).toEqual(DEFAULTS);
    const bad = structuredClone(exported.body);
    bad.realm.webAuthnPolicyPasswordlessRequireResidentKey = "Maybe";
    const refused = await api.post("/admin/realms/import?overwrite=true", bad);
    expect(refused.status).toBe(400);
    expect(refused.body.problems).toEqual([{
      path: "$.realm.webAuthnPolicyPasswordlessRequireResidentKey",
      message: "webAuthnPolicyPasswordlessRequireResidentKey must be one of \"not specified\", \"Yes\", \"No\"",
    }]);
  }, 60_000);
});

describe("the responses of this file", () => {
  it("match the OpenAPI document (status, media type, body schema)", () => {
    expect(expectResponsesDocumented(recorded)).toBeGreaterThan(0);
  });
});
