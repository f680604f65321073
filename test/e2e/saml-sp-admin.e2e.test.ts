import { generateKeyPairSync, X509Certificate } from "node:crypto";
import { adminApi, http, uniqueName } from "./support/http.js";
import { eventually, targets } from "./support/targets.js";
import type { TestServer } from "./support/embedded-server.js";
import { opensslCertificate, pemBody } from "../support/openssl-cert.js";
import { selfSignedCertificate } from "../../services/saml/src/domain/self-signed-cert.js";
import { recordResponses } from "./support/http.js";
import { expectResponsesDocumented } from "./support/openapi-check.js";

// Every response this file receives is checked against the OpenAPI document at its end.
const recorded = recordResponses();

const EMAIL = "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress";
const PERSISTENT = "urn:oasis:names:tc:SAML:2.0:nameid-format:persistent";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const MISSING_ID = "00000000-0000-4000-8000-000000000000";

// SAML service provider Admin API, spec 2.11 and 4.12 (methods per DESIGN 7), in every run mode.
describe.each(targets())("SAML service providers ($mode)", (target) => {
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;
  let realm: string;
  const cert = opensslCertificate({ cn: "sp.example.test" });
  const certX509 = new X509Certificate(cert);
  const sps = (r = realm) => `/admin/realms/${r}/saml-service-providers`;

  beforeAll(async () => {
    server = await target.start("saml-sp");
    api = adminApi(server.url, server.apiKey);
    realm = uniqueName("saml-sp");
    expect((await api.post("/admin/realms", { name: realm })).status).toBe(201);
  }, 90_000);
  afterAll(async () => server?.stop());

  const minimal = (entityId = `urn:test:${uniqueName("sp")}`) => ({ entityId, name: "Minimal SP", acsUrl: "https://sp.example.test/acs" });

  it("registers an SP with every spec default", async () => {
    const body = minimal();
    const res = await api.post(sps(), body);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(UUID), ...body, enabled: true, nameIdFormat: EMAIL,
      signAssertions: true, signResponses: true, attributeStatements: {}, requireSignedRequests: false,
      createdAt: expect.any(String), updatedAt: expect.any(String),
    });
    expect(res.body.createdAt).toBe(res.body.updatedAt);
    expect(Date.parse(res.body.createdAt)).toBeGreaterThan(Date.now() - 60_000);
  });

  it("registers an SP with every field, returning the certificate as given and its info", async () => {
    const body = {
      entityId: "https://sp.example.test/metadata?x=<1>&y=\"2\"", name: "Full <SP> & co", enabled: false,
      acsUrl: "https://sp.example.test/saml/acs", sloUrl: "http://localhost:3000/saml/slo", certificate: cert,
      nameIdFormat: PERSISTENT, signAssertions: false, signResponses: false,
      attributeStatements: { mail: "email", uid: "username", givenName: "firstName", sn: "lastName", role: "roles", memberOf: "groups", dept: "attribute:department" },
    };
    const res = await api.post(sps(), body);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      // A registered certificate makes signed requests required unless requireSignedRequests says otherwise.
      id: expect.stringMatching(UUID), ...body, requireSignedRequests: true,
      certificateInfo: {
        subject: "CN=sp.example.test",
        notAfter: expect.any(String),
        fingerprintSha256: certX509.fingerprint256,
      },
      createdAt: expect.any(String), updatedAt: expect.any(String),
    });
    expect(Date.parse(res.body.certificateInfo.notAfter)).toBe(Date.parse(certX509.validTo));
    const got = await api.get(`${sps()}/${res.body.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(res.body);
  });

  it("accepts a certificate without BEGIN/END lines and an EC certificate", async () => {
    const bare = await api.post(sps(), { ...minimal(), certificate: pemBody(cert) });
    expect(bare.status).toBe(201);
    expect(bare.body.certificate).toBe(pemBody(cert));
    expect(bare.body.certificateInfo.fingerprintSha256).toBe(certX509.fingerprint256);
    const ec = await api.post(sps(), { ...minimal(), certificate: opensslCertificate({ cn: "ec.sp.test", key: "ec" }) });
    expect(ec.status).toBe(201);
    expect(ec.body.certificateInfo.subject).toBe("CN=ec.sp.test");
  });

  it("refuses garbage, expired and non-RSA/EC certificates with a 400 naming certificate", async () => {
    const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const expired = selfSignedCertificate({ commonName: "old", publicKey, privateKey, notBefore: Date.parse("2020-01-01"), notAfter: Date.parse("2021-01-01") });
    const cases: Array<[string, string]> = [
      ["garbage!", "certificate must be a PEM certificate"],
      ["-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----", "certificate is not a valid X.509 certificate"],
      [expired, "certificate has expired"],
      [opensslCertificate({ cn: "ed", key: "ed25519" }), "certificate must carry an RSA or EC public key"],
    ];
    for (const [certificate, message] of cases) {
      const res = await api.post(sps(), { ...minimal(), certificate });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: "invalid_request", message, field: "certificate" });
    }
  });

  it("answers 409 naming entityId for a duplicate in the realm, and allows it in another realm", async () => {
    const body = minimal();
    expect((await api.post(sps(), body)).status).toBe(201);
    const again = await api.post(sps(), { ...body, name: "Other" });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({
      error: "conflict", message: `SAML service provider with entityId "${body.entityId}" already exists`, field: "entityId",
    });
    const other = uniqueName("saml-sp-other");
    await api.post("/admin/realms", { name: other });
    expect((await api.post(sps(other), body)).status).toBe(201);
  });

  it.each([
    [{ name: "n", acsUrl: "https://a.test/acs" }, "entityId", "invalid_request", "entityId is required"],
    [{ entityId: "", name: "n", acsUrl: "https://a.test/acs" }, "entityId", "invalid_request", "entityId must be at least 1 characters"],
    [{ entityId: "urn:x", acsUrl: "https://a.test/acs" }, "name", "invalid_request", "name is required"],
    [{ entityId: "urn:x", name: "n" }, "acsUrl", "invalid_request", "acsUrl is required"],
    [{ entityId: "urn:x", name: "n", acsUrl: "/acs" }, "acsUrl", "invalid_request", "acsUrl must be an absolute URL"],
    [{ entityId: "urn:x", name: "n", acsUrl: "http://sp.test/acs" }, "acsUrl", "invalid_request", "acsUrl must be an https URL (http only for localhost)"],
    [{ entityId: "urn:x", name: "n", acsUrl: "javascript:alert(1)" }, "acsUrl", "invalid_request", "acsUrl must be an https URL (http only for localhost)"],
    [{ entityId: "urn:x", name: "n", acsUrl: "data:text/html,x" }, "acsUrl", "invalid_request", "acsUrl must be an https URL (http only for localhost)"],
    [{ entityId: "urn:x", name: "n", acsUrl: "https://a.test/acs#f" }, "acsUrl", "invalid_request", "acsUrl must not have a fragment"],
    [{ entityId: "urn:x", name: "n", acsUrl: "https://a.test/acs", sloUrl: "javascript:x" }, "sloUrl", "invalid_request", "sloUrl must be an https URL (http only for localhost)"],
    [{ entityId: "urn:x", name: "n", acsUrl: "https://a.test/acs", nameIdFormat: "urn:x" }, "nameIdFormat", "invalid_request",
      "nameIdFormat must be one of urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress, urn:oasis:names:tc:SAML:2.0:nameid-format:persistent, urn:oasis:names:tc:SAML:2.0:nameid-format:transient, urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified"],
    [{ entityId: "urn:x", name: "n", acsUrl: "https://a.test/acs", attributeStatements: { mail: "password" } }, "attributeStatements.mail", "invalid_request",
      "attributeStatements.mail must be one of username, email, firstName, lastName, roles, groups or attribute:<name>"],
    [{ entityId: "urn:x", name: "n", acsUrl: "https://a.test/acs", attributeStatements: { "": "email" } }, "attributeStatements", "invalid_request",
      "attributeStatements keys must be attribute names of 1 to 255 characters"],
    [{ entityId: "urn:x", name: "n", acsUrl: "https://a.test/acs", attributeStatements: { mail: 1 } }, "attributeStatements", "invalid_field", "attributeStatements must be an object of strings"],
    [{ entityId: "urn:x", name: "n", acsUrl: "https://a.test/acs", enabled: "yes" }, "enabled", "invalid_field", "enabled must be a boolean"],
    [{ entityId: 5, name: "n", acsUrl: "https://a.test/acs" }, "entityId", "invalid_field", "entityId must be a string"],
    [{ ...{ entityId: "urn:x", name: "n", acsUrl: "https://a.test/acs" }, id: MISSING_ID }, "id", "unknown_field", "unknown or read-only field: id"],
    [{ ...{ entityId: "urn:x", name: "n", acsUrl: "https://a.test/acs" }, certificateInfo: {} }, "certificateInfo", "unknown_field", "unknown or read-only field: certificateInfo"],
    [{ ...{ entityId: "urn:x", name: "n", acsUrl: "https://a.test/acs" }, attributeStatementsPresent: true }, "attributeStatementsPresent", "unknown_field",
      "unknown or read-only field: attributeStatementsPresent"],
  ])("refuses %j with a 400 naming %s", async (body, field, error, message) => {
    const res = await api.post(sps(), body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error, message, field });
  });

  it("404s an unknown realm and an unknown SP on every path", async () => {
    const realm404 = { error: "realm_not_found", message: 'realm "no-such-realm" not found' };
    for (const res of [
      await api.post(sps("no-such-realm"), minimal()),
      await api.get(sps("no-such-realm")),
      await api.get(`${sps("no-such-realm")}/${MISSING_ID}`),
      await api.put(`${sps("no-such-realm")}/${MISSING_ID}`, { name: "x" }),
      await api.del(`${sps("no-such-realm")}/${MISSING_ID}`),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual(realm404);
    }
    const sp404 = { error: "saml_service_provider_not_found", message: `SAML service provider "${MISSING_ID}" not found` };
    for (const res of [
      await api.get(`${sps()}/${MISSING_ID}`),
      await api.put(`${sps()}/${MISSING_ID}`, { name: "x" }),
      await api.del(`${sps()}/${MISSING_ID}`),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual(sp404);
    }
  });

  it("does not show one realm's SP under another realm", async () => {
    const created = await api.post(sps(), minimal());
    const other = uniqueName("saml-sp-iso");
    await api.post("/admin/realms", { name: other });
    const res = await api.get(`${sps(other)}/${created.body.id}`);
    expect(res.status).toBe(404);
    expect((await api.get(sps(other))).body).toEqual([]);
  });

  it("lists a realm's SPs in creation order", async () => {
    const r = uniqueName("saml-sp-list");
    await api.post("/admin/realms", { name: r });
    expect((await api.get(sps(r))).body).toEqual([]);
    const a = await api.post(sps(r), minimal("urn:list:b"));
    const b = await api.post(sps(r), minimal("urn:list:a"));
    const res = await api.get(sps(r));
    expect(res.status).toBe(200);
    expect(res.body).toEqual([a.body, b.body]);
  });

  it("updates only the fields sent, validates them, and can remove sloUrl, certificate and mappings", async () => {
    const created = await api.post(sps(), {
      ...minimal(), sloUrl: "https://sp.example.test/slo", certificate: cert, attributeStatements: { mail: "email" },
    });
    const path = `${sps()}/${created.body.id}`;
    const renamed = await api.put(path, { name: "Renamed", enabled: false, nameIdFormat: PERSISTENT });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toEqual({
      ...created.body, name: "Renamed", enabled: false, nameIdFormat: PERSISTENT, updatedAt: expect.any(String),
    });
    expect(Date.parse(renamed.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(created.body.updatedAt));

    const bad = await api.put(path, { acsUrl: "javascript:alert(1)" });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: "invalid_request", message: "acsUrl must be an https URL (http only for localhost)", field: "acsUrl" });
    const badCert = await api.put(path, { certificate: "nope!" });
    expect(badCert.status).toBe(400);
    expect(badCert.body).toEqual({ error: "invalid_request", message: "certificate must be a PEM certificate", field: "certificate" });
    const readOnly = await api.put(path, { createdAt: "2020-01-01T00:00:00Z" });
    expect(readOnly.status).toBe(400);
    expect(readOnly.body).toEqual({ error: "unknown_field", message: "unknown or read-only field: createdAt", field: "createdAt" });

    const cleared = await api.put(path, { sloUrl: "", certificate: "", attributeStatements: {} });
    expect(cleared.status).toBe(200);
    expect(cleared.body).not.toHaveProperty("sloUrl");
    expect(cleared.body).not.toHaveProperty("certificate");
    expect(cleared.body).not.toHaveProperty("certificateInfo");
    expect(cleared.body.attributeStatements).toEqual({});
    expect(cleared.body.name).toBe("Renamed");
    expect((await api.get(path)).body).toEqual(cleared.body);

    const mapped = await api.put(path, { attributeStatements: { role: "roles" }, certificate: pemBody(cert) });
    expect(mapped.body.attributeStatements).toEqual({ role: "roles" });
    expect(mapped.body.certificateInfo.subject).toBe("CN=sp.example.test");
  });

  it("checks an entityId change for uniqueness (409) and allows keeping its own", async () => {
    const a = await api.post(sps(), minimal());
    const b = await api.post(sps(), minimal());
    const clash = await api.put(`${sps()}/${b.body.id}`, { entityId: a.body.entityId });
    expect(clash.status).toBe(409);
    expect(clash.body).toEqual({
      error: "conflict", message: `SAML service provider with entityId "${a.body.entityId}" already exists`, field: "entityId",
    });
    const same = await api.put(`${sps()}/${b.body.id}`, { entityId: b.body.entityId });
    expect(same.status).toBe(200);
    const moved = await api.put(`${sps()}/${b.body.id}`, { entityId: "urn:moved:" + uniqueName("x") });
    expect(moved.status).toBe(200);
    expect((await api.post(sps(), { ...minimal(), entityId: b.body.entityId })).status).toBe(201);
  });

  it("deletes with 204, after which the SP is gone", async () => {
    const created = await api.post(sps(), minimal());
    const path = `${sps()}/${created.body.id}`;
    const del = await api.del(path);
    expect(del.status).toBe(204);
    expect(del.text).toBe("");
    expect((await api.get(path)).status).toBe(404);
    expect((await api.del(path)).status).toBe(404);
    expect((await api.get(sps())).body.map((s: { id: string }) => s.id)).not.toContain(created.body.id);
  });

  it("answers 401 without credentials on every SP path, and 405 with Allow for other methods", async () => {
    const base = `${server.url}${sps()}`;
    const denied = { error: "unauthorized", message: "missing credentials: send X-Admin-API-Key or Authorization: Bearer <admin token>" };
    for (const [method, url] of [["POST", base], ["GET", base], ["GET", `${base}/${MISSING_ID}`], ["PUT", `${base}/${MISSING_ID}`], ["DELETE", `${base}/${MISSING_ID}`]] as const) {
      const res = await http(method, url, method === "POST" || method === "PUT" ? { body: minimal() } : {});
      expect(res.status).toBe(401);
      expect(res.body).toEqual(denied);
    }
    const wrong = await http("GET", base, { headers: { "X-Admin-API-Key": "wrong" } });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ error: "unauthorized", message: "invalid API key" });
    const patch = await api.call("PATCH", sps(), {});
    expect(patch.status).toBe(405);
    expect(patch.headers.get("allow")).toBe("POST, GET, HEAD");
  });

  it("records CREATE, UPDATE and DELETE admin events when the realm has admin events on", async () => {
    const r = uniqueName("saml-sp-events");
    await api.post("/admin/realms", { name: r, adminEventsEnabled: true });
    const created = await api.post(sps(r), minimal());
    const updated = await api.put(`${sps(r)}/${created.body.id}`, { name: "Evented" });
    expect((await api.del(`${sps(r)}/${created.body.id}`)).status).toBe(204);
    const events = await eventually(
      () => api.get(`/admin/realms/${r}/admin-events?resourceType=SAML_SERVICE_PROVIDER`),
      (res) => Array.isArray(res.body) && res.body.length === 3,
    );
    const resourcePath = `realms/${r}/saml-service-providers/${created.body.id}`;
    const byOp = Object.fromEntries(events.body.map((e: { operationType: string }) => [e.operationType, e]));
    expect(byOp.CREATE).toMatchObject({ realm: r, resourceType: "SAML_SERVICE_PROVIDER", resourcePath, authDetails: { type: "api-key" } });
    expect(JSON.parse(byOp.CREATE.representation)).toEqual(created.body);
    expect(JSON.parse(byOp.UPDATE.representation)).toEqual(updated.body);
    expect(byOp.DELETE).toMatchObject({ resourcePath, representation: "" });

    const quiet = uniqueName("saml-sp-quiet");
    await api.post("/admin/realms", { name: quiet });
    await api.post(sps(quiet), minimal());
    expect((await api.get(`/admin/realms/${quiet}/admin-events`)).body).toEqual([]);
  });
});

describe("the responses of this file", () => {
  it("match the OpenAPI document (status, media type, body schema)", () => {
    expect(expectResponsesDocumented(recorded)).toBeGreaterThan(0);
  });
});
