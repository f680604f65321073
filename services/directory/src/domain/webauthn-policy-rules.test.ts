import { IamError } from "../../../kit/src/errors.js";
import { checkRealmFields } from "./realm-rules.js";
import { webAuthnPolicyOf, WEBAUTHN_POLICY_DEFAULTS, type WebAuthnPolicyFields } from "./webauthn-policy.js";

/** The IamError a realm input draws, as { field, message }; null when it passes. */
function refusal(input: WebAuthnPolicyFields): { field: string | undefined; message: string } | null {
  try {
    checkRealmFields(input);
    return null;
  } catch (e) {
    if (!(e instanceof IamError)) throw e;
    expect([e.code, e.reason]).toEqual(["invalidArgument", "invalid_request"]);
    return { field: e.field, message: e.message };
  }
}

describe("WebAuthn passwordless policy rules", () => {
  it.each<[WebAuthnPolicyFields]>([
    [{ webAuthnPolicyPasswordlessRpEntityName: "" }],
    [{ webAuthnPolicyPasswordlessRpEntityName: "Acme" }],
    [{ webAuthnPolicyPasswordlessSignatureAlgorithms: ["ES256", "ES384", "ES512", "RS256", "RS384", "RS512", "RS1", "Ed25519"] }],
    [{ webAuthnPolicyPasswordlessRpId: "" }],
    [{ webAuthnPolicyPasswordlessRpId: "example.com" }],
    ...["not specified", "none", "indirect", "direct"].map((v) => [{ webAuthnPolicyPasswordlessAttestationConveyancePreference: v }] as [WebAuthnPolicyFields]),
    ...["not specified", "platform", "cross-platform"].map((v) => [{ webAuthnPolicyPasswordlessAuthenticatorAttachment: v }] as [WebAuthnPolicyFields]),
    ...["not specified", "Yes", "No"].map((v) => [{ webAuthnPolicyPasswordlessRequireResidentKey: v }] as [WebAuthnPolicyFields]),
    ...["not specified", "required", "preferred", "discouraged"].map((v) => [{ webAuthnPolicyPasswordlessUserVerificationRequirement: v }] as [WebAuthnPolicyFields]),
    [{ webAuthnPolicyPasswordlessCreateTimeout: 0 }],
    [{ webAuthnPolicyPasswordlessCreateTimeout: 31_536 }],
    [{ webAuthnPolicyPasswordlessAcceptableAaguids: [] }],
    [{ webAuthnPolicyPasswordlessAcceptableAaguids: ["2fc0579f-8113-47ea-b116-bb5a8db9202a", "CB69481E-8FF7-4039-93EC-0A2729A154A8"] }],
    [{ webAuthnPolicyPasswordlessExtraOrigins: ["https://app.example.com", "http://localhost:3000", "android:apk-key-hash:Q1Ffd0yF9g"] }],
  ])("accepts %j", (input) => expect(refusal(input)).toBeNull());

  it.each<[WebAuthnPolicyFields, string, string]>([
    [{ webAuthnPolicyPasswordlessRpEntityName: "x".repeat(256) }, "webAuthnPolicyPasswordlessRpEntityName",
      "webAuthnPolicyPasswordlessRpEntityName must be at most 255 characters"],
    [{ webAuthnPolicyPasswordlessSignatureAlgorithms: [] }, "webAuthnPolicyPasswordlessSignatureAlgorithms",
      "webAuthnPolicyPasswordlessSignatureAlgorithms must name at least one algorithm"],
    [{ webAuthnPolicyPasswordlessSignatureAlgorithms: ["ES256", "PS256"] }, "webAuthnPolicyPasswordlessSignatureAlgorithms[1]",
      "webAuthnPolicyPasswordlessSignatureAlgorithms[1] must be one of ES256, ES384, ES512, RS256, RS384, RS512, RS1, Ed25519"],
    [{ webAuthnPolicyPasswordlessSignatureAlgorithms: ["es256"] }, "webAuthnPolicyPasswordlessSignatureAlgorithms[0]",
      "webAuthnPolicyPasswordlessSignatureAlgorithms[0] must be one of ES256, ES384, ES512, RS256, RS384, RS512, RS1, Ed25519"],
    [{ webAuthnPolicyPasswordlessSignatureAlgorithms: ["ES256", "ES256"] }, "webAuthnPolicyPasswordlessSignatureAlgorithms[1]",
      "webAuthnPolicyPasswordlessSignatureAlgorithms[1] repeats \"ES256\""],
    [{ webAuthnPolicyPasswordlessRpId: "https://example.com" }, "webAuthnPolicyPasswordlessRpId", "webAuthnPolicyPasswordlessRpId must be a hostname"],
    [{ webAuthnPolicyPasswordlessRpId: "example.com:8443" }, "webAuthnPolicyPasswordlessRpId", "webAuthnPolicyPasswordlessRpId must be a hostname"],
    [{ webAuthnPolicyPasswordlessAttestationConveyancePreference: "enterprise" }, "webAuthnPolicyPasswordlessAttestationConveyancePreference",
      "webAuthnPolicyPasswordlessAttestationConveyancePreference must be one of \"not specified\", \"none\", \"indirect\", \"direct\""],
    [{ webAuthnPolicyPasswordlessAuthenticatorAttachment: "Platform" }, "webAuthnPolicyPasswordlessAuthenticatorAttachment",
      "webAuthnPolicyPasswordlessAuthenticatorAttachment must be one of \"not specified\", \"platform\", \"cross-platform\""],
    [{ webAuthnPolicyPasswordlessRequireResidentKey: "yes" }, "webAuthnPolicyPasswordlessRequireResidentKey",
      "webAuthnPolicyPasswordlessRequireResidentKey must be one of \"not specified\", \"Yes\", \"No\""],
    [{ webAuthnPolicyPasswordlessUserVerificationRequirement: "always" }, "webAuthnPolicyPasswordlessUserVerificationRequirement",
      "webAuthnPolicyPasswordlessUserVerificationRequirement must be one of \"not specified\", \"required\", \"preferred\", \"discouraged\""],
    [{ webAuthnPolicyPasswordlessCreateTimeout: -1 }, "webAuthnPolicyPasswordlessCreateTimeout",
      "webAuthnPolicyPasswordlessCreateTimeout must be an integer between 0 and 31536"],
    [{ webAuthnPolicyPasswordlessCreateTimeout: 31_537 }, "webAuthnPolicyPasswordlessCreateTimeout",
      "webAuthnPolicyPasswordlessCreateTimeout must be an integer between 0 and 31536"],
    [{ webAuthnPolicyPasswordlessAcceptableAaguids: ["not-a-uuid"] }, "webAuthnPolicyPasswordlessAcceptableAaguids[0]",
      "webAuthnPolicyPasswordlessAcceptableAaguids[0] must be an AAGUID (a UUID such as 2fc0579f-8113-47ea-b116-bb5a8db9202a)"],
    [{ webAuthnPolicyPasswordlessExtraOrigins: ["https://app.example.com/"] }, "webAuthnPolicyPasswordlessExtraOrigins[0]",
      "webAuthnPolicyPasswordlessExtraOrigins[0] must be an origin (scheme://host[:port], or an app origin such as android:apk-key-hash:...)"],
    [{ webAuthnPolicyPasswordlessExtraOrigins: ["https://ok.example.com", "ftp://files.example.com"] }, "webAuthnPolicyPasswordlessExtraOrigins[1]",
      "webAuthnPolicyPasswordlessExtraOrigins[1] must be an origin (scheme://host[:port], or an app origin such as android:apk-key-hash:...)"],
  ])("refuses %j naming %s", (input, field, message) => {
    expect(refusal(input)).toEqual({ field, message });
  });

  it("refuses a list of more than 100 entries", () => {
    const origins = Array.from({ length: 101 }, (_, n) => `https://a${n}.example.com`);
    expect(refusal({ webAuthnPolicyPasswordlessExtraOrigins: origins })).toEqual({
      field: "webAuthnPolicyPasswordlessExtraOrigins", message: "webAuthnPolicyPasswordlessExtraOrigins holds at most 100 entries",
    });
  });

  it("reads a realm without the fields as Tessera's defaults, and a set field as set", () => {
    expect(webAuthnPolicyOf({})).toEqual({
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
    });
    const set = webAuthnPolicyOf({ webAuthnPolicyPasswordlessUserVerificationRequirement: "required", webAuthnPolicyPasswordlessCreateTimeout: 0 });
    expect(set).toEqual({ ...WEBAUTHN_POLICY_DEFAULTS, webAuthnPolicyPasswordlessUserVerificationRequirement: "required", webAuthnPolicyPasswordlessCreateTimeout: 0 });
    // The defaults' lists are copies: a caller changing one changes no other realm's policy.
    webAuthnPolicyOf({}).webAuthnPolicyPasswordlessSignatureAlgorithms.push("RS1");
    expect(WEBAUTHN_POLICY_DEFAULTS.webAuthnPolicyPasswordlessSignatureAlgorithms).toEqual(["Ed25519", "ES256", "RS256"]);
  });
});
