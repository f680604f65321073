import { generateAuthenticationOptions, generateRegistrationOptions } from "@simplewebauthn/server";
import {
  applyAuthenticationPolicy, applyRegistrationPolicy, ceremonySite, coseAlgorithms, excludedCredentials, policyRefusal,
  requiresUserVerification, type AttestedAuthenticator,
} from "./passkey-ceremony-policy.js";
import { webAuthnPolicyOf, type WebAuthnPolicyFields } from "./webauthn-policy.js";

const RP = { rpId: "login.example.com", origin: "https://login.example.com", rpName: "acme" };
const CHALLENGE = new Uint8Array(32).fill(7);

/** The registration options a realm with `fields` gets, through the library as the directory calls it. */
async function registration(fields: WebAuthnPolicyFields, existing: Array<{ credentialId: string; transports: string[] }> = []) {
  const policy = webAuthnPolicyOf(fields);
  const site = ceremonySite(policy, RP, "acme");
  const options = await generateRegistrationOptions({
    rpName: site.rpName, rpID: site.rpId, userName: "erin", userID: new TextEncoder().encode("u1"), challenge: CHALLENGE,
    supportedAlgorithmIDs: coseAlgorithms(policy), excludeCredentials: excludedCredentials(policy, existing, () => ["usb"]),
  });
  return applyRegistrationPolicy(options, policy);
}

async function authentication(fields: WebAuthnPolicyFields) {
  const policy = webAuthnPolicyOf(fields);
  const options = await generateAuthenticationOptions({ rpID: ceremonySite(policy, RP, "acme").rpId, challenge: CHALLENGE });
  return applyAuthenticationPolicy(options, policy);
}

describe("passkey ceremonies under the realm's WebAuthn policy", () => {
  it("gives a realm without a policy the options passkeys always had", async () => {
    const o = await registration({}, [{ credentialId: "abc", transports: ["usb"] }]);
    expect(o.rp).toEqual({ name: "acme", id: "login.example.com" });
    expect(o.pubKeyCredParams).toEqual([{ alg: -8, type: "public-key" }, { alg: -7, type: "public-key" }, { alg: -257, type: "public-key" }]);
    expect(o.authenticatorSelection).toEqual({ residentKey: "required", requireResidentKey: true, userVerification: "preferred" });
    expect([o.attestation, o.timeout]).toEqual(["none", 120_000]);
    expect(o.excludeCredentials).toEqual([{ id: "abc", type: "public-key", transports: ["usb"] }]);
    const a = await authentication({});
    expect([a.rpId, a.userVerification, a.timeout]).toEqual(["login.example.com", "preferred", 120_000]);
  });

  it("writes every set field into the creation options", async () => {
    const o = await registration({
      webAuthnPolicyPasswordlessRpEntityName: "Acme Corp", webAuthnPolicyPasswordlessRpId: "example.com",
      webAuthnPolicyPasswordlessSignatureAlgorithms: ["ES512", "RS1", "Ed25519", "ES384", "RS384", "RS512"],
      webAuthnPolicyPasswordlessAttestationConveyancePreference: "direct", webAuthnPolicyPasswordlessAuthenticatorAttachment: "cross-platform",
      webAuthnPolicyPasswordlessRequireResidentKey: "No", webAuthnPolicyPasswordlessUserVerificationRequirement: "required",
      webAuthnPolicyPasswordlessCreateTimeout: 300, webAuthnPolicyPasswordlessAvoidSameAuthenticatorRegister: false,
    }, [{ credentialId: "abc", transports: [] }]);
    expect(o.rp).toEqual({ name: "Acme Corp", id: "example.com" });
    expect(o.pubKeyCredParams.map((p) => p.alg)).toEqual([-36, -65535, -8, -35, -258, -259]);
    expect(o.authenticatorSelection).toEqual({
      authenticatorAttachment: "cross-platform", residentKey: "discouraged", requireResidentKey: false, userVerification: "required",
    });
    expect([o.attestation, o.timeout, o.excludeCredentials]).toEqual(["direct", 300_000, []]);
  });

  it("leaves out what the policy does not specify, and the timeout at 0 (the browser's default)", async () => {
    const nothing = {
      webAuthnPolicyPasswordlessAttestationConveyancePreference: "not specified", webAuthnPolicyPasswordlessAuthenticatorAttachment: "not specified",
      webAuthnPolicyPasswordlessRequireResidentKey: "not specified", webAuthnPolicyPasswordlessUserVerificationRequirement: "not specified",
      webAuthnPolicyPasswordlessCreateTimeout: 0,
    };
    const o = await registration(nothing);
    expect(o.authenticatorSelection).toEqual({});
    expect(Object.keys(o)).not.toContain("attestation");
    expect(Object.keys(o)).not.toContain("timeout");
    const a = await authentication(nothing);
    expect(Object.keys(a)).not.toContain("userVerification");
    expect(Object.keys(a)).not.toContain("timeout");
    const required = await authentication({ webAuthnPolicyPasswordlessUserVerificationRequirement: "required", webAuthnPolicyPasswordlessCreateTimeout: 45 });
    expect([required.userVerification, required.timeout]).toEqual(["required", 45_000]);
  });

  it("accepts the public URL's origin and the extra origins, and checks UV only when required", () => {
    const policy = webAuthnPolicyOf({ webAuthnPolicyPasswordlessExtraOrigins: ["https://app.example.com", "https://login.example.com"] });
    expect(ceremonySite(policy, RP, "acme")).toEqual({
      rpId: "login.example.com", rpName: "acme", origins: ["https://login.example.com", "https://app.example.com"],
    });
    expect(requiresUserVerification(policy)).toBe(false);
    expect(requiresUserVerification(webAuthnPolicyOf({ webAuthnPolicyPasswordlessUserVerificationRequirement: "required" }))).toBe(true);
  });

  describe("policyRefusal", () => {
    const YUBI = "cb69481e-8ff7-4039-93ec-0a2729a154a8";
    const attested = (over: Partial<AttestedAuthenticator> = {}): AttestedAuthenticator => ({
      fmt: "packed", aaguid: YUBI, hasCertificate: true, attachment: "cross-platform", ...over,
    });
    const allowList = webAuthnPolicyOf({ webAuthnPolicyPasswordlessAcceptableAaguids: [YUBI.toUpperCase()] });

    it("passes an attested, listed authenticator, and anything when no list is set", () => {
      expect(policyRefusal(allowList, attested())).toBeNull();
      expect(policyRefusal(webAuthnPolicyOf({}), attested({ fmt: "none", hasCertificate: false, aaguid: "00000000-0000-0000-0000-000000000000" }))).toBeNull();
    });

    it.each<[string, Partial<AttestedAuthenticator>, string]>([
      ["an unlisted AAGUID", { aaguid: "2fc0579f-8113-47ea-b116-bb5a8db9202a" }, "authenticator model 2fc0579f-8113-47ea-b116-bb5a8db9202a is not acceptable"],
      ["attestation none", { fmt: "none", hasCertificate: false }, "acceptable AAGUIDs need an attestation with a certificate"],
      ["self attestation", { hasCertificate: false }, "acceptable AAGUIDs need an attestation with a certificate"],
    ])("refuses %s when AAGUIDs are listed", (_label, over, reason) => {
      expect(policyRefusal(allowList, attested(over))).toBe(reason);
    });

    it("refuses a none statement when direct or indirect attestation is asked, as Keycloak does", () => {
      for (const pref of ["direct", "indirect"]) {
        const policy = webAuthnPolicyOf({ webAuthnPolicyPasswordlessAttestationConveyancePreference: pref });
        expect(policyRefusal(policy, attested({ fmt: "none", hasCertificate: false }))).toBe(`the policy asks for ${pref} attestation; the authenticator gave none`);
        expect(policyRefusal(policy, attested())).toBeNull();
      }
    });

    it("refuses another attachment than the policy's, as the client reports it", () => {
      const policy = webAuthnPolicyOf({ webAuthnPolicyPasswordlessAuthenticatorAttachment: "platform" });
      expect(policyRefusal(policy, attested())).toBe("the policy asks for a platform authenticator; the client reported cross-platform");
      expect(policyRefusal(policy, attested({ attachment: undefined }))).toBe("the policy asks for a platform authenticator; the client reported none");
      expect(policyRefusal(policy, attested({ attachment: "platform" }))).toBeNull();
    });
  });
});
