import * as oidc from "openid-client";
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from "jose";
import { adminApi, http, recordResponses, uniqueName } from "./support/http.js";
import { eventually, targets } from "./support/targets.js";
import type { TestServer } from "./support/embedded-server.js";
import { expectResponsesDocumented } from "./support/openapi-check.js";
import { exportSchemaProblems } from "./support/realm-export-schema.js";

const recorded = recordResponses();
const PW = "Signing-Algs-1";

// Per-client signing algorithms: a client's ID tokens (OIDC Dynamic Client Registration 1.0
// section 2, id_token_signed_response_alg) and access tokens (Keycloak's
// access.token.signed.response.alg) signed with RS256, PS256 (RFC 7518 section 3.5), ES256 or
// EdDSA. openid-client is the relying party: told the client's id_token_signed_response_alg and
// with non-repudiation checks on, it refuses an ID token of any other alg or whose signature does
// not verify against the realm's JWKS.
describe.each(targets())("per-client signing algorithms ($mode)", (target) => {
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;
  let realm: string;
  let userId: string;
  const secrets: Record<string, string> = {};
  const issuer = () => `${server.url}/realms/${realm}`;
  const endpoint = (p: string) => `${issuer()}/protocol/openid-connect/${p}`;
  const jwks = async () => (await http("GET", endpoint("certs"))).body.keys as Array<Record<string, string>>;
  /** openid-client for a confidential client expecting its ID tokens signed with `idAlg`, signatures checked. */
  const rp = (clientId: string, idAlg: string) => oidc.discovery(new URL(issuer()), clientId, { client_secret: secrets[clientId]!, id_token_signed_response_alg: idAlg }, undefined, {
    execute: [oidc.allowInsecureRequests, oidc.enableNonRepudiationChecks],
  });
  const passwordGrant = (config: oidc.Configuration) => oidc.genericGrantRequest(config, "password", { username: "nora", password: PW, scope: "openid profile" });
  /** The JWT's header alg, and the JWKS entry its kid names (kty and alg). */
  const keyOf = async (jwt: string) => {
    const header = decodeProtectedHeader(jwt);
    const jwk = (await jwks()).find((k) => k.kid === header.kid);
    return [header.alg, jwk?.kty, jwk?.alg];
  };
  const introspect = (clientId: string, token: string) =>
    http("POST", `${endpoint("token")}/introspect`, { form: { token, client_id: clientId, client_secret: secrets[clientId]! } });

  beforeAll(async () => {
    server = await target.start("signing-algs");
    api = adminApi(server.url, server.apiKey);
    realm = uniqueName("algs");
    expect((await api.post("/admin/realms", { name: realm })).status).toBe(201);
    const clients: Array<[string, Record<string, unknown>]> = [
      ["plain", {}],
      ["ps-id", { idTokenSignedResponseAlg: "PS256" }],
      ["es-access", { accessTokenSignedResponseAlg: "ES256" }],
      ["ed-both", { idTokenSignedResponseAlg: "EdDSA", accessTokenSignedResponseAlg: "EdDSA" }],
    ];
    for (const [clientId, body] of clients) {
      const res = await api.post(`/admin/realms/${realm}/clients`, { clientId, grantTypes: ["password", "refresh_token"], ...body });
      expect(res.status).toBe(201);
      secrets[clientId] = res.body.secret;
    }
    const user = await api.post(`/admin/realms/${realm}/users`, { username: "nora", email: "nora@example.com", firstName: "Nora", password: PW });
    expect(user.status).toBe(201);
    userId = user.body.id;
  }, 90_000);
  afterAll(async () => {
    await server?.stop();
    expectResponsesDocumented(recorded);
  });

  it("shows the fields on the client (\"\" by default), updates them, and refuses an unknown alg naming the field", async () => {
    expect((await api.get(`/admin/realms/${realm}/clients/plain`)).body).toMatchObject({ idTokenSignedResponseAlg: "", accessTokenSignedResponseAlg: "" });
    expect((await api.get(`/admin/realms/${realm}/clients/ed-both`)).body).toMatchObject({ idTokenSignedResponseAlg: "EdDSA", accessTokenSignedResponseAlg: "EdDSA" });
    const hs = await api.post(`/admin/realms/${realm}/clients`, { clientId: uniqueName("hs"), idTokenSignedResponseAlg: "HS256" });
    expect(hs.status).toBe(400);
    expect(hs.body).toEqual({ error: "invalid_request", message: 'idTokenSignedResponseAlg must be one of "", RS256, PS256, ES256, EdDSA', field: "idTokenSignedResponseAlg" });
    const none = await api.put(`/admin/realms/${realm}/clients/plain`, { accessTokenSignedResponseAlg: "none" });
    expect(none.status).toBe(400);
    expect(none.body).toEqual({ error: "invalid_request", message: 'accessTokenSignedResponseAlg must be one of "", RS256, PS256, ES256, EdDSA', field: "accessTokenSignedResponseAlg" });
    const notString = await api.put(`/admin/realms/${realm}/clients/plain`, { idTokenSignedResponseAlg: 256 });
    expect([notString.status, notString.body.error, notString.body.field]).toEqual([400, "invalid_field", "idTokenSignedResponseAlg"]);
    const spare = uniqueName("spare");
    expect((await api.post(`/admin/realms/${realm}/clients`, { clientId: spare })).status).toBe(201);
    const set = await api.put(`/admin/realms/${realm}/clients/${spare}`, { accessTokenSignedResponseAlg: "PS256" });
    expect([set.status, set.body.accessTokenSignedResponseAlg, set.body.idTokenSignedResponseAlg]).toEqual([200, "PS256", ""]);
    const back = await api.put(`/admin/realms/${realm}/clients/${spare}`, { accessTokenSignedResponseAlg: "" });
    expect([back.status, back.body.accessTokenSignedResponseAlg]).toEqual([200, ""]);
  });

  it("lists the four algorithms in discovery", async () => {
    const res = await http("GET", `${issuer()}/.well-known/openid-configuration`);
    expect(res.body.id_token_signing_alg_values_supported).toEqual(["RS256", "PS256", "ES256", "EdDSA"]);
  });

  it("signs a PS256 client's ID token with a PS256 key of the JWKS, which openid-client verifies", async () => {
    const tokens = await passwordGrant(await rp("ps-id", "PS256"));
    expect(await keyOf(tokens.id_token!)).toEqual(["PS256", "RSA", "PS256"]);
    expect(tokens.claims()).toMatchObject({ iss: issuer(), sub: userId, aud: "ps-id", azp: "ps-id" });
    // The access token keeps the realm's algorithm, and the realm's algorithm is still RS256 for
    // the other clients: the PS256 key was made for this client.
    expect(await keyOf(tokens.access_token)).toEqual(["RS256", "RSA", "RS256"]);
    const plain = await passwordGrant(await rp("plain", "RS256"));
    expect([decodeProtectedHeader(plain.id_token!).alg, decodeProtectedHeader(plain.access_token).alg]).toEqual(["RS256", "RS256"]);
    // An RP expecting RS256 refuses the PS256 ID token (OIDC Core 3.1.3.7 step 7).
    const refused = await passwordGrant(await rp("ps-id", "RS256")).then(() => undefined, (e: Error) => e);
    expect((refused?.cause as Error | undefined)?.message).toMatch(/"alg"/);
    const { payload } = await jwtVerify(tokens.id_token!, createRemoteJWKSet(new URL(endpoint("certs"))), { algorithms: ["PS256"], issuer: issuer(), audience: "ps-id" });
    expect(payload.sub).toBe(userId);
  });

  it("signs an ES256 client's access token with ES256, which introspection and userinfo accept", async () => {
    const config = await rp("es-access", "RS256");
    const tokens = await passwordGrant(config);
    expect(await keyOf(tokens.access_token)).toEqual(["ES256", "EC", "ES256"]);
    expect(await keyOf(tokens.id_token!)).toEqual(["RS256", "RSA", "RS256"]);
    const info = await introspect("es-access", tokens.access_token);
    expect(info.status).toBe(200);
    expect(info.body).toMatchObject({ active: true, sub: userId, client_id: "es-access", token_type: "Bearer" });
    expect(await oidc.fetchUserInfo(config, tokens.access_token, userId)).toMatchObject({ sub: userId, given_name: "Nora" });
    // Another client may introspect it too: the introspection endpoint accepts every published alg.
    expect((await introspect("plain", tokens.access_token)).body.active).toBe(true);
    // A refreshed access token is ES256 as well.
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    expect(decodeProtectedHeader(refreshed.access_token).alg).toBe("ES256");
  });

  it("signs both tokens of an EdDSA client with Ed25519, at_hash with SHA-512", async () => {
    const config = await rp("ed-both", "EdDSA");
    const tokens = await passwordGrant(config);
    expect(await keyOf(tokens.id_token!)).toEqual(["EdDSA", "OKP", "EdDSA"]);
    expect(await keyOf(tokens.access_token)).toEqual(["EdDSA", "OKP", "EdDSA"]);
    const { createHash } = await import("node:crypto");
    const digest = createHash("sha512").update(tokens.access_token).digest();
    expect(tokens.claims()!.at_hash).toBe(digest.subarray(0, 32).toString("base64url"));
    expect(await oidc.fetchUserInfo(config, tokens.access_token, userId)).toMatchObject({ sub: userId });
    expect((await introspect("ed-both", tokens.access_token)).body).toMatchObject({ active: true, sub: userId });
  });

  it("keeps the fields and the client's keys through export and import", async () => {
    const before = await passwordGrant(await rp("ps-id", "PS256"));
    const psKid = decodeProtectedHeader(before.id_token!).kid;
    const exported = await api.get(`/admin/realms/${realm}/export?includeUsers=true&includeSecrets=true`);
    expect(exported.status).toBe(200);
    expect(exportSchemaProblems(exported.body)).toEqual([]);
    const doc = exported.body;
    const client = (id: string) => doc.clients.find((c: { clientId: string }) => c.clientId === id);
    expect([client("ps-id").idTokenSignedResponseAlg, client("ps-id").accessTokenSignedResponseAlg]).toEqual(["PS256", ""]);
    expect([client("es-access").idTokenSignedResponseAlg, client("es-access").accessTokenSignedResponseAlg]).toEqual(["", "ES256"]);
    expect([client("ed-both").idTokenSignedResponseAlg, client("ed-both").accessTokenSignedResponseAlg]).toEqual(["EdDSA", "EdDSA"]);
    expect(doc.signingKeys.find((k: { kid: string }) => k.kid === psKid)).toMatchObject({ alg: "PS256", status: "active", clientOnly: true });
    const imported = await api.post("/admin/realms/import?overwrite=true", doc);
    expect(imported.status).toBe(201);
    expect((await api.get(`/admin/realms/${realm}/clients/es-access`)).body).toMatchObject({ idTokenSignedResponseAlg: "", accessTokenSignedResponseAlg: "ES256" });
    // After the import the client's key still signs its ID tokens, and the realm still signs RS256.
    const after = await eventually(async () => passwordGrant(await rp("ps-id", "PS256")).then((t) => [decodeProtectedHeader(t.id_token!).kid, decodeProtectedHeader(t.access_token).alg], () => []),
      (v) => v.length > 0);
    expect(after).toEqual([psKid, "RS256"]);
    const again = (await api.get(`/admin/realms/${realm}/export?includeUsers=true&includeSecrets=true`)).body;
    expect(again.clients.find((c: { clientId: string }) => c.clientId === "ed-both")).toMatchObject({ idTokenSignedResponseAlg: "EdDSA", accessTokenSignedResponseAlg: "EdDSA" });
  }, 60_000);
});
