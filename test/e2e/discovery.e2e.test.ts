import { createHash } from "node:crypto";
import * as oidc from "openid-client";
import { importJWK, calculateJwkThumbprint } from "jose";
import { adminApi, http, uniqueName } from "./support/http.js";
import { eventually, targets } from "./support/targets.js";
import type { TestServer } from "./support/embedded-server.js";
import { recordResponses } from "./support/http.js";
import { expectResponsesDocumented } from "./support/openapi-check.js";

// Every response this file receives is checked against the OpenAPI document at its end.
const recorded = recordResponses();

// OIDC discovery and JWKS (spec 4.17; OIDC Discovery 1.0 section 3; RFC 7517), and realm key admin.
describe.each(targets())("discovery and JWKS ($mode)", (target) => {
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;
  let realm: string;

  beforeAll(async () => {
    server = await target.start("discovery");
    api = adminApi(server.url, server.apiKey);
    realm = uniqueName("disco");
    expect((await api.post("/admin/realms", { name: realm })).status).toBe(201);
  }, 90_000);
  afterAll(async () => server?.stop());

  const wellKnown = (r: string) => `${server.url}/realms/${r}/.well-known/openid-configuration`;
  const certs = (r: string) => `${server.url}/realms/${r}/protocol/openid-connect/certs`;

  it("serves the exact discovery document, issuer {base_url}/realms/<realm>", async () => {
    const res = await http("GET", wellKnown(realm));
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("cache-control")).toBe("public, max-age=300, must-revalidate");
    const issuer = `${server.url}/realms/${realm}`;
    const base = `${issuer}/protocol/openid-connect`;
    const methods = ["client_secret_basic", "client_secret_post", "client_secret_jwt", "private_key_jwt", "none"];
    const assertionAlgs = ["RS256", "PS256", "ES256", "EdDSA", "HS256"];
    expect(res.body).toEqual({
      issuer,
      authorization_endpoint: `${base}/auth`,
      token_endpoint: `${base}/token`,
      introspection_endpoint: `${base}/token/introspect`,
      userinfo_endpoint: `${base}/userinfo`,
      end_session_endpoint: `${base}/logout`,
      jwks_uri: `${base}/certs`,
      revocation_endpoint: `${base}/revoke`,
      device_authorization_endpoint: `${base}/auth/device`,
      registration_endpoint: `${server.url}/realms/${realm}/clients-registrations/openid-connect`,
      pushed_authorization_request_endpoint: `${base}/ext/par/request`,
      require_pushed_authorization_requests: false,
      grant_types_supported: [
        "authorization_code", "client_credentials", "password", "refresh_token",
        "urn:ietf:params:oauth:grant-type:device_code", "urn:ietf:params:oauth:grant-type:token-exchange",
      ],
      response_types_supported: ["code"],
      response_modes_supported: ["query", "fragment", "form_post"],
      subject_types_supported: ["public"],
      id_token_signing_alg_values_supported: ["RS256", "PS256", "ES256", "EdDSA"],
      // openid and the realm's OpenID Connect client scopes, in name order (the built-ins here).
      scopes_supported: ["openid", "acr", "address", "basic", "email", "offline_access", "organization", "phone", "profile", "roles", "web-origins"],
      claims_supported: [
        "iss", "sub", "aud", "exp", "iat", "auth_time", "nonce", "acr", "amr", "azp", "sid", "at_hash",
        "name", "given_name", "family_name", "middle_name", "nickname", "preferred_username", "profile",
        "picture", "website", "gender", "birthdate", "zoneinfo", "locale", "updated_at",
        "email", "email_verified", "address", "phone_number", "phone_number_verified",
      ],
      code_challenge_methods_supported: ["S256"],
      token_endpoint_auth_methods_supported: methods,
      // RFC 7662 section 2.1: introspection requires client authentication, so not "none".
      introspection_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post", "client_secret_jwt", "private_key_jwt"],
      revocation_endpoint_auth_methods_supported: methods,
      token_endpoint_auth_signing_alg_values_supported: assertionAlgs,
      introspection_endpoint_auth_signing_alg_values_supported: assertionAlgs,
      revocation_endpoint_auth_signing_alg_values_supported: assertionAlgs,
      backchannel_logout_supported: true,
      backchannel_logout_session_supported: true,
      frontchannel_logout_supported: false,
      request_parameter_supported: true,
      request_object_signing_alg_values_supported: ["none", "RS256", "PS256", "ES256", "EdDSA"],
      request_uri_parameter_supported: false,
      claims_parameter_supported: false,
      authorization_response_iss_parameter_supported: true,
      dpop_signing_alg_values_supported: ["ES256", "RS256", "PS256", "EdDSA"],
    });
  });

  it("tags discovery with a strong ETag of its body: If-None-Match is a 304, a new scope a new tag", async () => {
    const r = uniqueName("disco-etag");
    expect((await api.post("/admin/realms", { name: r })).status).toBe(201);
    const first = await http("GET", wellKnown(r));
    expect(first.status).toBe(200);
    const etag = first.headers.get("etag")!;
    // Strong (no W/), the SHA-256 of exactly the bytes sent (RFC 9110 section 8.8.3).
    expect(etag).toBe(`"${createHash("sha256").update(first.text).digest("base64url")}"`);
    expect((await http("GET", wellKnown(r))).headers.get("etag")).toBe(etag);
    // RFC 9110 section 13.1.2: weak comparison, any listed tag, or "*".
    for (const inm of [etag, `W/${etag}`, `"nope", ${etag}`, "*"]) {
      const cached = await http("GET", wellKnown(r), { headers: { "if-none-match": inm } });
      expect(cached.status).toBe(304);
      expect(cached.text).toBe("");
      expect(cached.headers.get("etag")).toBe(etag);
      expect(cached.headers.get("cache-control")).toBe("public, max-age=300, must-revalidate");
    }
    expect((await http("GET", wellKnown(r), { headers: { "if-none-match": `"nope"` } })).status).toBe(200);
    // HEAD answers the GET's headers, without the body (RFC 9110 section 9.3.2).
    const head = await fetch(wellKnown(r), { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("etag")).toBe(etag);
    expect(head.headers.get("content-length")).toBe(String(Buffer.byteLength(first.text)));
    expect(await head.text()).toBe("");

    // A new client scope is a new document, so a new tag; the old one no longer matches.
    expect((await api.post(`/admin/realms/${r}/client-scopes`, { name: "dept" })).status).toBe(201);
    const changed = await eventually(() => http("GET", wellKnown(r), { headers: { "if-none-match": etag } }), (res) => res.status === 200);
    expect(changed.status).toBe(200);
    expect(changed.body.scopes_supported).toContain("dept");
    const next = changed.headers.get("etag")!;
    expect(next).not.toBe(etag);
    expect(next).toBe(`"${createHash("sha256").update(changed.text).digest("base64url")}"`);
    expect((await http("GET", wellKnown(r), { headers: { "if-none-match": next } })).status).toBe(304);
  });

  it("lists openid and the realm's OpenID Connect client scopes as they are created, renamed and deleted (not SAML ones)", async () => {
    const r = uniqueName("disco-scopes");
    expect((await api.post("/admin/realms", { name: r })).status).toBe(201);
    const supported = async () => (await http("GET", wellKnown(r))).body.scopes_supported as string[];
    /** Until the token service's cache follows the write (token-config.changed), at most 10 s. */
    const settle = (want: string[]) => eventually(supported, (got) => JSON.stringify(got) === JSON.stringify(want));
    const builtins = ["acr", "address", "basic", "email", "offline_access", "organization", "phone", "profile", "roles", "web-origins"];
    expect(await supported()).toEqual(["openid", ...builtins]);

    const dept = await api.post(`/admin/realms/${r}/client-scopes`, { name: "dept", description: "Department" });
    expect(dept.status).toBe(201);
    expect((await api.post(`/admin/realms/${r}/client-scopes`, { name: "saml-dept", protocol: "saml" })).status).toBe(201);
    const withDept = ["openid", "acr", "address", "basic", "dept", "email", "offline_access", "organization", "phone", "profile", "roles", "web-origins"];
    expect(await settle(withDept)).toEqual(withDept);

    expect((await api.put(`/admin/realms/${r}/client-scopes/${dept.body.id}`, { name: "zone" })).status).toBe(200);
    const renamed = ["openid", ...builtins, "zone"];
    expect(await settle(renamed)).toEqual(renamed);

    const phone = ((await api.get(`/admin/realms/${r}/client-scopes`)).body as Array<{ id: string; name: string }>).find((c) => c.name === "phone")!;
    expect((await api.del(`/admin/realms/${r}/client-scopes/${phone.id}`)).status).toBe(204);
    const withoutPhone = ["openid", ...builtins.filter((n) => n !== "phone"), "zone"];
    expect(await settle(withoutPhone)).toEqual(withoutPhone);
    // Another realm's scopes are its own.
    expect((await http("GET", wellKnown(realm))).body.scopes_supported).toEqual(["openid", ...builtins]);
  });

  it("is discoverable by openid-client as a relying party", async () => {
    const issuer = new URL(`${server.url}/realms/${realm}`);
    const config = await oidc.discovery(issuer, "some-client", "some-secret", undefined, {
      execute: [oidc.allowInsecureRequests],
    });
    const meta = config.serverMetadata();
    expect(meta.issuer).toBe(issuer.href);
    expect(meta.jwks_uri).toBe(`${issuer.href}/protocol/openid-connect/certs`);
    expect(meta.supportsPKCE()).toBe(true);
  });

  it("publishes one RS256 key whose kid is its RFC 7638 thumbprint", async () => {
    const res = await http("GET", certs(realm));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/jwk-set\+json/);
    expect(res.headers.get("cache-control")).toBe("no-cache");
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    const body = JSON.parse(res.text);
    // Revalidation by ETag (RFC 9110 section 13.1.2): the same set is a 304 without a body.
    const etag = res.headers.get("etag");
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    const again = await http("GET", certs(realm), { headers: { "if-none-match": `"other", W/${etag}` } });
    expect(again.status).toBe(304);
    expect(again.text).toBe("");
    expect(again.headers.get("etag")).toBe(etag);
    expect(again.headers.get("cache-control")).toBe("no-cache");
    expect((await http("GET", certs(realm), { headers: { "if-none-match": `"other"` } })).status).toBe(200);
    expect(body.keys).toHaveLength(1);
    const [key] = body.keys;
    expect(Object.keys(key).sort()).toEqual(["alg", "e", "kid", "kty", "n", "use"]);
    expect(key).toMatchObject({ kty: "RSA", use: "sig", alg: "RS256", e: "AQAB" });
    expect(key.kid).toBe(await calculateJwkThumbprint({ kty: "RSA", n: key.n, e: key.e }, "sha256"));
    await importJWK(key, "RS256");
    // Stable across reads.
    expect(JSON.parse((await http("GET", certs(realm))).text)).toEqual(body);
  });

  it("answers 404 realm_not_found for an unknown or disabled realm, never cached", async () => {
    for (const url of [wellKnown("no-such-realm-x1"), certs("no-such-realm-x1")]) {
      const res = await http("GET", url);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: "realm_not_found", error_description: "realm not found" });
      expect(res.headers.get("cache-control")).toBe("no-store");
    }
    const disabled = uniqueName("disco-off");
    expect((await api.post("/admin/realms", { name: disabled, enabled: false })).status).toBe(201);
    expect((await http("GET", wellKnown(disabled))).status).toBe(404);
    expect((await http("GET", certs(disabled))).status).toBe(404);
    // The Admin API still manages a disabled realm's keys.
    expect((await api.get(`/admin/realms/${disabled}/keys`)).status).toBe(200);
  });

  it("follows a served realm being disabled, enabled again and deleted within 2 s (event-driven, not the cache's 5 s)", async () => {
    const r = uniqueName("disco-flip");
    expect((await api.post("/admin/realms", { name: r })).status).toBe(201);
    const statuses = async () => [(await http("GET", wellKnown(r))).status, (await http("GET", certs(r))).status];
    /** Polls both endpoints for up to 2 s until they answer `want`; the answers when it stopped. */
    const settle = async (want: number) => {
      const until = Date.now() + 2_000;
      let got = await statuses();
      while (got.some((s) => s !== want) && Date.now() < until) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        got = await statuses();
      }
      return got;
    };
    expect(await statuses()).toEqual([200, 200]);
    expect((await api.put(`/admin/realms/${r}`, { enabled: false })).status).toBe(200);
    expect(await settle(404)).toEqual([404, 404]);
    expect((await api.put(`/admin/realms/${r}`, { enabled: true })).status).toBe(200);
    expect(await settle(200)).toEqual([200, 200]);
    expect((await api.del(`/admin/realms/${r}`)).status).toBe(200);
    expect(await settle(404)).toEqual([404, 404]);
    const gone = await http("GET", wellKnown(r));
    expect(gone.body).toEqual({ error: "realm_not_found", error_description: "realm not found" });
  });

  it("answers 405 with Allow for other methods", async () => {
    for (const url of [wellKnown(realm), certs(realm)]) {
      const res = await http("POST", url, { body: {} });
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe("GET, HEAD");
    }
    const res = await api.get(`/admin/realms/${realm}/keys/rotate`);
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST");
  });

  it("rotates keys through the Admin API: the old key stays published as passive", async () => {
    const r = uniqueName("disco-rot");
    expect((await api.post("/admin/realms", { name: r, accessTokenLifespan: 120, refreshTokenLifespan: 600 })).status).toBe(201);
    const beforeRes = await http("GET", certs(r));
    const before = JSON.parse(beforeRes.text).keys;
    expect(before).toHaveLength(1);

    const listed = await api.get(`/admin/realms/${r}/keys`);
    expect(listed.status).toBe(200);
    expect(listed.body).toHaveLength(1);
    expect(listed.body[0]).toMatchObject({ kid: before[0].kid, alg: "RS256", status: "active", use: "sig" });
    expect(Date.parse(listed.body[0].createdAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(listed.text).not.toMatch(/PRIVATE|privateKey|"d":/);

    const rotated = await api.post(`/admin/realms/${r}/keys/rotate`);
    expect(rotated.status).toBe(200);
    expect(rotated.body).toHaveLength(2);
    const [fresh, old] = rotated.body;
    expect(fresh).toMatchObject({ alg: "RS256", status: "active" });
    expect(old).toMatchObject({ kid: before[0].kid, status: "passive" });
    // notAfter = rotatedAt + max(accessTokenLifespan, refreshTokenLifespan).
    expect(Date.parse(old.notAfter) - Date.parse(old.rotatedAt)).toBe(600_000);
    expect(rotated.text).not.toMatch(/PRIVATE|privateKey|"d":/);

    const beforeTag = beforeRes.headers.get("etag")!;
    const afterRes = await http("GET", certs(r), { headers: { "if-none-match": beforeTag } });
    expect(afterRes.status).toBe(200); // a changed set is a new ETag, on the first GET after the rotation
    const afterTag = afterRes.headers.get("etag")!;
    expect(afterTag).not.toBe(beforeTag);
    expect(afterTag).toBe(`"${createHash("sha256").update(afterRes.text).digest("base64url")}"`);
    expect((await http("GET", certs(r), { headers: { "if-none-match": afterTag } })).status).toBe(304);
    const after = JSON.parse(afterRes.text).keys;
    expect(after.map((k: { kid: string }) => k.kid).sort()).toEqual([fresh.kid, old.kid].sort());

    // The first rotation to ES256 adds one key, active at once; no never-used passive twin is published.
    const es = await api.post(`/admin/realms/${r}/keys/rotate`, { alg: "ES256" });
    expect(es.status).toBe(200);
    expect(es.body.filter((k: { alg: string }) => k.alg === "ES256").map((k: { status: string }) => k.status)).toEqual(["active"]);
    const ecKeys = JSON.parse((await http("GET", certs(r))).text).keys.filter((k: { alg: string }) => k.alg === "ES256");
    expect(ecKeys).toHaveLength(1);
    expect(ecKeys[0].kid).toBe(es.body[0].kid);
    expect(Object.keys(ecKeys[0]).sort()).toEqual(["alg", "crv", "kid", "kty", "use", "x", "y"]);

    const bad = await api.post(`/admin/realms/${r}/keys/rotate`, { alg: "HS256" });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: "invalid_alg", field: "alg" });
    const unknown = await api.post(`/admin/realms/${r}/keys/rotate`, { kid: "x" });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ error: "unknown_field", field: "kid" });
    expect((await api.post("/admin/realms/no-such-realm-x2/keys/rotate")).status).toBe(404);
  });

  it("requires admin credentials for the key routes", async () => {
    expect((await http("GET", `${server.url}/admin/realms/${realm}/keys`)).status).toBe(401);
    expect((await http("POST", `${server.url}/admin/realms/${realm}/keys/rotate`)).status).toBe(401);
  });

  it("a deleted and re-created realm gets fresh keys", async () => {
    const r = uniqueName("disco-del");
    expect((await api.post("/admin/realms", { name: r })).status).toBe(201);
    const first = JSON.parse((await http("GET", certs(r))).text).keys;
    expect((await api.del(`/admin/realms/${r}`)).status).toBe(200);
    expect((await http("GET", certs(r))).status).toBe(404);
    expect((await api.post("/admin/realms", { name: r })).status).toBe(201);
    const second = JSON.parse((await http("GET", certs(r))).text).keys;
    expect(second).toHaveLength(1);
    expect(second[0].kid).not.toBe(first[0].kid);
  });
});

describe("the responses of this file", () => {
  it("match the OpenAPI document (status, media type, body schema)", () => {
    expect(expectResponsesDocumented(recorded)).toBeGreaterThan(0);
  });
});
