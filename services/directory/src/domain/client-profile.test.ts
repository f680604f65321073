import { IamError } from "../../../kit/src/errors.js";
import type { ClientRecord } from "./client.js";
import { checkClientProfile, checkProfileConsistency } from "./client-profile.js";

/** A client that meets the FAPI 2.0 Security Profile; each test breaks one setting. */
const fapi = (over: Partial<ClientRecord> = {}): ClientRecord => ({
  _id: "c1", realmId: "r1", clientId: "bank", name: "", description: "", clientType: "CONFIDENTIAL", enabled: true,
  redirectUris: ["https://app.example.com/cb"], webOrigins: [], grantTypes: ["authorization_code", "refresh_token"],
  requireConsent: false, backchannelLogoutUri: "", backchannelLogoutSessionRequired: true,
  tokenEndpointAuthMethod: "private_key_jwt", jwks: { keys: [{ kty: "EC" }] }, jwksUri: "",
  requirePushedAuthorizationRequests: true, dpopBoundAccessTokens: true, idTokenSignedResponseAlg: "ES256",
  accessTokenSignedResponseAlg: "ES256", clientProfile: "fapi2-security", createdAt: 0, updatedAt: 0, ...over,
});

/** The field an inconsistent client is refused under. */
const refusedField = (c: ClientRecord): string | undefined => {
  try {
    checkProfileConsistency(c);
    return undefined;
  } catch (e) {
    expect(e).toBeInstanceOf(IamError);
    expect((e as IamError).reason).toBe("invalid_request");
    return (e as IamError).field;
  }
};

describe("client profiles", () => {
  it("knows \"\" and fapi2-security only", () => {
    expect(checkClientProfile("")).toBe("");
    expect(checkClientProfile("fapi2-security")).toBe("fapi2-security");
    expect(() => checkClientProfile("FAPI2-security")).toThrow('clientProfile must be "" or "fapi2-security"');
  });

  it("accepts a consistent FAPI 2.0 client with each allowed algorithm, and any client without a profile", () => {
    for (const alg of ["PS256", "ES256", "EdDSA"]) {
      expect(refusedField(fapi({ idTokenSignedResponseAlg: alg, accessTokenSignedResponseAlg: alg }))).toBeUndefined();
    }
    expect(refusedField(fapi({ grantTypes: ["client_credentials"] }))).toBeUndefined();
    expect(refusedField(fapi({ clientProfile: "", clientType: "PUBLIC", dpopBoundAccessTokens: false, grantTypes: ["password"] }))).toBeUndefined();
  });

  it("names the first setting that disagrees", () => {
    expect(refusedField(fapi({ clientType: "PUBLIC" }))).toBe("clientType");
    expect(refusedField(fapi({ tokenEndpointAuthMethod: "client_secret_jwt" }))).toBe("tokenEndpointAuthMethod");
    expect(refusedField(fapi({ requirePushedAuthorizationRequests: false }))).toBe("requirePushedAuthorizationRequests");
    expect(refusedField(fapi({ dpopBoundAccessTokens: undefined }))).toBe("dpopBoundAccessTokens");
    expect(refusedField(fapi({ idTokenSignedResponseAlg: "" }))).toBe("idTokenSignedResponseAlg");
    expect(refusedField(fapi({ idTokenSignedResponseAlg: "RS256" }))).toBe("idTokenSignedResponseAlg");
    expect(refusedField(fapi({ accessTokenSignedResponseAlg: "RS256" }))).toBe("accessTokenSignedResponseAlg");
    expect(refusedField(fapi({ grantTypes: ["authorization_code", "urn:ietf:params:oauth:grant-type:device_code"] }))).toBe("grantTypes");
  });
});
