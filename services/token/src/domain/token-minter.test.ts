import type { Transport } from "@connectrpc/connect";
import type { KeyRing } from "./key-ring.js";
import type { ClientInfo } from "./client-directory.js";
import type { OAuthRealm } from "./realm-settings.js";
import { TokenMinter, atHash, type ScopeGrant } from "./token-minter.js";

// The payloads mint signs: a key ring that "signs" by returning the payload's JSON shows exactly
// what would be signed, key order included.
const keys = {
  currentAlgNow: () => "RS256",
  currentAlg: () => Promise.resolve("RS256"),
  sign: (_realm: unknown, payload: unknown) => Promise.resolve(JSON.stringify(payload)),
} as unknown as KeyRing;
const realm = { id: "r1", name: "acme", enabled: true, maxTokenLifespan: 1800, accessTokenLifespan: 300, refreshTokenLifespan: 1800, offlineTokenLifespan: 86400, eventsEnabled: false, eventsExpiration: 0, registrationAllowed: false } as unknown as OAuthRealm;
const client = { clientId: "app" } as ClientInfo;
const NOW = 1_700_000_000_123;

describe("TokenMinter.mint", () => {
  const minter = new TokenMinter({} as Transport, keys, { now: () => NOW });
  // As ResolveClaims hands them over: parsed JSON, so "__proto__" is an own claim like any other.
  const grant: ScopeGrant = {
    names: ["openid", "profile"],
    realmRoles: [],
    accessClaims: JSON.parse('{"realm_access":{"roles":["r"]},"iss":"mapped-iss","acr":"1","scope":"mapped","aud":["a","b"],"amr":"m","__proto__":"p","custom":1}') as Record<string, unknown>,
    idClaims: JSON.parse('{"email":"e@x","acr":"1","nonce":"mapped","amr":"mapped","sid":"mapped"}') as Record<string, unknown>,
  };

  it("puts the mapper claims first, lets no mapper set a reserved claim, and keeps every claim's place", async () => {
    const minted = await minter.mint(realm, "https://id/realms/acme", client,
      { userId: "u1", sid: "s1", familyId: "f1", authTime: NOW - 5000, amr: ["pwd"], nonce: "n1", acr: "0" }, grant,
      { jti: "j1", now: NOW, expiresAt: 0 });
    const access = JSON.parse(minted.accessToken) as Record<string, unknown>;
    const iat = Math.floor(NOW / 1000);
    expect(Object.keys(access)).toEqual(["realm_access", "acr", "amr", "__proto__", "custom", "iss", "sub", "aud", "exp", "iat", "jti", "azp", "typ", "scope", "sid", "fid"]);
    expect(minted.accessToken).toBe(JSON.stringify(JSON.parse(
      `{"realm_access":{"roles":["r"]},"acr":"0","amr":"m","__proto__":"p","custom":1,"iss":"https://id/realms/acme","sub":"u1","aud":["a","b"],` +
      `"exp":${iat + 300},"iat":${iat},"jti":"j1","azp":"app","typ":"Bearer","scope":"openid profile","sid":"s1","fid":"f1"}`,
    )));
    expect(Object.getPrototypeOf(access)).toBe(Object.prototype);
    const id = JSON.parse(minted.idToken) as Record<string, unknown>;
    expect(Object.keys(id)).toEqual(["email", "acr", "amr", "iss", "sub", "aud", "exp", "iat", "auth_time", "jti", "azp", "typ", "at_hash", "nonce", "sid"]);
    expect(id).toMatchObject({
      email: "e@x", acr: "0", amr: ["pwd"], sid: "s1", iss: "https://id/realms/acme", sub: "u1", aud: "app", exp: iat + 300, iat,
      auth_time: Math.floor((NOW - 5000) / 1000), azp: "app", typ: "ID", at_hash: atHash(minted.accessToken, "RS256"), nonce: "n1",
    });
    expect(id.jti).toMatch(/^[0-9a-f-]{36}$/);
    expect(minted).toMatchObject({ expiresIn: 300, scope: "openid profile" });
  });

  it("leaves out what the subject lacks: no sid, fid, nonce or acr, the client as audience, no ID token without auth_time", async () => {
    const bare: ScopeGrant = { names: ["profile"], realmRoles: [], accessClaims: { acr: "1", custom: 2 }, idClaims: {} };
    const minted = await minter.mint(realm, "https://id/realms/acme", client, { userId: "sa", sid: "", familyId: "" }, bare, { jti: "j2", now: NOW, expiresAt: 0 });
    const access = JSON.parse(minted.accessToken) as Record<string, unknown>;
    // Without a login level the mapper's "1" stands (client_credentials).
    expect(Object.keys(access)).toEqual(["acr", "custom", "iss", "sub", "aud", "exp", "iat", "jti", "azp", "typ", "scope"]);
    expect(access).toMatchObject({ acr: "1", aud: "app", scope: "profile" });
    expect(minted.idToken).toBe("");
  });

  it("names an impersonating administrator in both tokens (Keycloak's impersonator claim), which no mapper can forge", async () => {
    const forged: ScopeGrant = { names: ["openid"], realmRoles: [], accessClaims: { impersonator: { id: "x", username: "mallory" } }, idClaims: { impersonator: "mallory" } };
    const subject = { userId: "u1", sid: "s1", familyId: "", authTime: NOW, amr: [] };
    const plain = await minter.mint(realm, "https://id/realms/acme", client, subject, forged, { jti: "j3", now: NOW, expiresAt: 0 });
    expect([JSON.parse(plain.accessToken).impersonator, JSON.parse(plain.idToken).impersonator]).toEqual([undefined, undefined]);
    const impersonated = await minter.mint(realm, "https://id/realms/acme", client, { ...subject, impersonator: { id: "a1", username: "root" } }, forged,
      { jti: "j4", now: NOW, expiresAt: 0 });
    expect(JSON.parse(impersonated.accessToken).impersonator).toEqual({ id: "a1", username: "root" });
    expect(JSON.parse(impersonated.idToken).impersonator).toEqual({ id: "a1", username: "root" });
  });

  it("expires access and ID token no later than the end of the login (SSO Session Max)", async () => {
    const iat = Math.floor(NOW / 1000);
    const at = (loginEndsAt: number) => minter.mint(realm, "https://id/realms/acme", client,
      { userId: "u1", sid: "s1", familyId: "", authTime: NOW, loginEndsAt }, grant, { jti: "j3", now: NOW, expiresAt: 0 });
    const soon = await at((iat + 120) * 1000);
    expect(soon.expiresIn).toBe(120);
    expect((JSON.parse(soon.accessToken) as { exp: number }).exp).toBe(iat + 120);
    expect((JSON.parse(soon.idToken) as { exp: number }).exp).toBe(iat + 120);
    expect((await at((iat + 3600) * 1000)).expiresIn).toBe(300);
  });

  it("signs with the client's algorithms where it has them, as a client's choice, and hashes at_hash with the ID token's", async () => {
    const calls: Array<[string, unknown]> = [];
    const atHashes: unknown[] = [];
    const recording = { ...keys, sign: (_r: unknown, payload: { typ: string; at_hash?: string }, options: { alg: string; forClient: boolean }) => {
      calls.push([payload.typ, options]);
      if (payload.at_hash) atHashes.push(payload.at_hash);
      return Promise.resolve(`${options.alg}.${payload.typ}`);
    } } as unknown as KeyRing;
    const m = new TokenMinter({} as Transport, recording, { now: () => NOW });
    const subject = { userId: "u1", sid: "s1", familyId: "", authTime: NOW };
    const edClient = { clientId: "app", idTokenSignedResponseAlg: "EdDSA", accessTokenSignedResponseAlg: "ES256" } as ClientInfo;
    const minted = await m.mint(realm, "https://id/realms/acme", edClient, subject, grant);
    expect([minted.accessToken, minted.idToken]).toEqual(["ES256.Bearer", "EdDSA.ID"]);
    expect(calls).toEqual([["Bearer", { alg: "ES256", typ: "JWT", forClient: true }], ["ID", { alg: "EdDSA", typ: "JWT", forClient: true }]]);
    // OIDC Core 1.0 section 3.1.3.6: the ID token's alg (EdDSA: SHA-512) decides, not the access token's.
    expect(atHashes).toEqual([atHash("ES256.Bearer", "EdDSA")]);
    expect(atHash("ES256.Bearer", "EdDSA")).toHaveLength(43);
    calls.length = 0;
    // "" is the realm's algorithm; the same algorithm as the realm's is no client's choice.
    const rsClient = { clientId: "app", idTokenSignedResponseAlg: "RS256", accessTokenSignedResponseAlg: "" } as ClientInfo;
    await m.mint(realm, "https://id/realms/acme", rsClient, subject, grant);
    expect(calls).toEqual([["Bearer", { alg: "RS256", typ: "JWT", forClient: false }], ["ID", { alg: "RS256", typ: "JWT", forClient: false }]]);
    expect(atHash("t", "PS256")).toBe(atHash("t", "RS256"));
  });
});
