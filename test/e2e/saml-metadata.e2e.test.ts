import { X509Certificate, createHash } from "node:crypto";
import samlify from "samlify";
import { adminApi, http, uniqueName } from "./support/http.js";
import { eventually, targets } from "./support/targets.js";
import type { TestServer } from "./support/embedded-server.js";
import { samlifyValidator, validateIdpMetadata } from "./support/metadata-schema.js";
import { pemBody } from "../support/openssl-cert.js";
import { recordResponses } from "./support/http.js";
import { expectResponsesDocumented } from "./support/openapi-check.js";

// Every response this file receives is checked against the OpenAPI document at its end.
const recorded = recordResponses();

const REDIRECT = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect";
const POST = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST";
const NAME_ID_FORMATS = [
  "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress",
  "urn:oasis:names:tc:SAML:2.0:nameid-format:persistent",
  "urn:oasis:names:tc:SAML:2.0:nameid-format:transient",
  "urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified",
];

samlify.setSchemaValidator(samlifyValidator);

function certsOf(xml: string): string[] {
  return [...xml.matchAll(/<ds:X509Certificate>([^<]+)<\/ds:X509Certificate>/g)].map((m) => m[1] as string);
}

// SAML 2.0 IdP metadata (spec 4.18) and the realm's signing keys, in every run mode.
describe.each(targets())("SAML IdP metadata and keys ($mode)", (target) => {
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;

  beforeAll(async () => {
    server = await target.start("saml-metadata");
    api = adminApi(server.url, server.apiKey);
  }, 90_000);
  afterAll(async () => server?.stop());

  async function newRealm(extra: Record<string, unknown> = {}): Promise<string> {
    const name = uniqueName("saml-md");
    expect((await api.post("/admin/realms", { name, ...extra })).status).toBe(201);
    return name;
  }
  const descriptor = (realm: string) => http("GET", `${server.url}/realms/${realm}/protocol/saml/descriptor`);

  it("creates the realm's signing key on first use: RSA, CN=<realm>, SHA-256, 10 years, no private material", async () => {
    const realm = await newRealm();
    const res = await api.get(`/admin/realms/${realm}/saml-keys`);
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(1);
    const key = res.body[0];
    expect(Object.keys(key).sort()).toEqual(
      ["algorithm", "certificate", "createdAt", "fingerprintSha256", "id", "notAfter", "notBefore", "status", "subject"],
    );
    expect(key).toMatchObject({ status: "ACTIVE", algorithm: "RSA-SHA256", subject: `CN=${realm}` });
    const x = new X509Certificate(key.certificate);
    expect(x.subject).toBe(`CN=${realm}`);
    expect(x.verify(x.publicKey)).toBe(true);
    expect(x.publicKey.asymmetricKeyType).toBe("rsa");
    expect(x.publicKey.asymmetricKeyDetails?.modulusLength).toBeGreaterThanOrEqual(2048);
    expect(x.fingerprint256).toBe(key.fingerprintSha256);
    expect(Date.parse(x.validTo) - Date.now()).toBeGreaterThan(9.99 * 365 * 24 * 3600 * 1000);
    expect(res.text).not.toMatch(/PRIVATE|privateKey|sealed/i);
    const again = await api.get(`/admin/realms/${realm}/saml-keys`);
    expect(again.body).toEqual(res.body);
  });

  it("agrees on one key when the first uses race", async () => {
    const realm = await newRealm();
    const all = await Promise.all([
      descriptor(realm), descriptor(realm), api.get(`/admin/realms/${realm}/saml-keys`), descriptor(realm),
    ]);
    const keys = await api.get(`/admin/realms/${realm}/saml-keys`);
    expect(keys.body).toHaveLength(1);
    for (const res of all.filter((r) => !r.body)) expect(certsOf(res.text)).toEqual([pemBody(keys.body[0].certificate)]);
  });

  it("serves schema-valid metadata that samlify reads as an IdP, with the certificate /saml-keys reports", async () => {
    const realm = await newRealm();
    const res = await descriptor(realm);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/samlmetadata+xml; charset=utf-8");
    // Revalidated on every use (it carries the signing certificate), a 304 while its strong ETag matches.
    expect(res.headers.get("cache-control")).toBe("no-cache");
    const etag = res.headers.get("etag")!;
    expect(etag).toBe(`"${createHash("sha256").update(res.text).digest("base64url")}"`);
    const cached = await http("GET", `${server.url}/realms/${realm}/protocol/saml/descriptor`, { headers: { "if-none-match": `W/${etag}` } });
    expect(cached.status).toBe(304);
    expect(cached.text).toBe("");
    expect(cached.headers.get("etag")).toBe(etag);
    const check = await validateIdpMetadata(res.text);
    expect(check).toEqual({ valid: true, errors: [] });

    const entityId = `${server.url}/realms/${realm}`;
    const protocolUrl = `${entityId}/protocol/saml`;
    const idp = samlify.IdentityProvider({ metadata: res.text });
    expect(idp.entityMeta.getEntityID()).toBe(entityId);
    expect(idp.entityMeta.getSingleSignOnService("redirect")).toBe(protocolUrl);
    expect(idp.entityMeta.getSingleSignOnService("post")).toBe(protocolUrl);
    expect(idp.entityMeta.getSingleLogoutService("redirect")).toBe(protocolUrl);
    expect(idp.entityMeta.getSingleLogoutService("post")).toBe(protocolUrl);
    expect(idp.entityMeta.getNameIDFormat()).toEqual(NAME_ID_FORMATS);
    expect(idp.entityMeta.isWantAuthnRequestsSigned()).toBe(false);
    const keys = await api.get(`/admin/realms/${realm}/saml-keys`);
    expect(idp.entityMeta.getX509Certificate("signing")).toBe(pemBody(keys.body[0].certificate));
    expect(res.text).toContain('protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol"');
    expect(res.text).toContain(`<SingleSignOnService Binding="${REDIRECT}" Location="${protocolUrl}"`);
    expect(res.text).toContain(`<SingleSignOnService Binding="${POST}" Location="${protocolUrl}"`);
  });

  it("fails the schema check on metadata out of schema order or with unknown elements (the check can fail)", async () => {
    const realm = await newRealm();
    const xml = (await descriptor(realm)).text;
    const ssoFirst = xml.replace(/(<SingleSignOnService[^>]*><\/SingleSignOnService>)+/, "")
      .replace("<KeyDescriptor", `<SingleSignOnService Binding="${REDIRECT}" Location="https://x.test/"></SingleSignOnService><KeyDescriptor`);
    expect((await validateIdpMetadata(ssoFirst)).valid).toBe(false);
    expect((await validateIdpMetadata(xml.replace("<NameIDFormat>", "<Bogus/><NameIDFormat>"))).valid).toBe(false);
    expect((await validateIdpMetadata(xml.replace(/ entityID="[^"]*"/, ""))).valid).toBe(false);
  });

  it("rotates: the new key signs and both certificates are published, new first", async () => {
    const realm = await newRealm({ adminEventsEnabled: true });
    const before = await api.get(`/admin/realms/${realm}/saml-keys`);
    const rotated = await api.post(`/admin/realms/${realm}/saml-keys/rotate`);
    expect(rotated.status).toBe(200);
    expect(rotated.body).toMatchObject({ status: "ACTIVE", subject: `CN=${realm}` });
    expect(rotated.body.id).not.toBe(before.body[0].id);
    expect(rotated.body.certificate).not.toBe(before.body[0].certificate);

    const after = await api.get(`/admin/realms/${realm}/saml-keys`);
    expect(after.body.map((k: { id: string; status: string }) => [k.id, k.status])).toEqual([
      [rotated.body.id, "ACTIVE"], [before.body[0].id, "PASSIVE"],
    ]);
    const retiresAt = Date.parse(after.body[1].retiresAt);
    expect(retiresAt - Date.now()).toBeGreaterThan(29 * 24 * 3600 * 1000);

    const xml = (await descriptor(realm)).text;
    expect(certsOf(xml)).toEqual([pemBody(rotated.body.certificate), pemBody(before.body[0].certificate)]);
    expect(await validateIdpMetadata(xml)).toEqual({ valid: true, errors: [] });
    const idp = samlify.IdentityProvider({ metadata: xml });
    expect(idp.entityMeta.getX509Certificate("signing")).toEqual([pemBody(rotated.body.certificate), pemBody(before.body[0].certificate)]);

    const events = await eventually(
      () => api.get(`/admin/realms/${realm}/admin-events?resourceType=SAML_SIGNING_KEY`),
      (res) => Array.isArray(res.body) && res.body.length === 1,
    );
    expect(events.body[0]).toMatchObject({ operationType: "ACTION", resourcePath: `realms/${realm}/saml-keys/rotate` });
    expect(events.body[0].representation).not.toMatch(/PRIVATE/);
  });

  it("404s an unknown realm on metadata and key paths", async () => {
    const body = { error: "realm_not_found", message: 'realm "no-such-realm" not found' };
    for (const res of [
      await descriptor("no-such-realm"),
      await api.get("/admin/realms/no-such-realm/saml-keys"),
      await api.post("/admin/realms/no-such-realm/saml-keys/rotate"),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual(body);
    }
  });

  it("404s a disabled realm's metadata as an unknown realm's (as discovery and JWKS); the Admin API still manages its keys", async () => {
    const realm = await newRealm({ enabled: false });
    const res = await descriptor(realm);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: "realm_not_found", message: `realm "${realm}" not found` });
    expect((await http("GET", `${server.url}/realms/${realm}/.well-known/openid-configuration`)).status).toBe(404);
    const keys = await api.get(`/admin/realms/${realm}/saml-keys`);
    expect(keys.status).toBe(200);
    expect(keys.body).toHaveLength(1);
    expect((await api.put(`/admin/realms/${realm}`, { enabled: true })).status).toBe(200);
    const served = await descriptor(realm);
    expect(served.status).toBe(200);
    expect(certsOf(served.text)).toEqual([pemBody(keys.body[0].certificate)]);
  });

  it("serves metadata without credentials, but the key paths need them", async () => {
    const realm = await newRealm();
    expect((await descriptor(realm)).status).toBe(200);
    const denied = { error: "unauthorized", message: "missing credentials: send X-Admin-API-Key or Authorization: Bearer <admin token>" };
    const list = await http("GET", `${server.url}/admin/realms/${realm}/saml-keys`);
    expect(list.status).toBe(401);
    expect(list.body).toEqual(denied);
    const rotate = await http("POST", `${server.url}/admin/realms/${realm}/saml-keys/rotate`);
    expect(rotate.status).toBe(401);
    expect(rotate.body).toEqual(denied);
    const post = await http("POST", `${server.url}/realms/${realm}/protocol/saml/descriptor`);
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, HEAD");
  });

  it("gives a realm re-created under a deleted realm's name a new key", async () => {
    const realm = await newRealm();
    const first = await api.get(`/admin/realms/${realm}/saml-keys`);
    expect((await api.del(`/admin/realms/${realm}`)).status).toBe(200);
    expect((await descriptor(realm)).status).toBe(404);
    await api.post("/admin/realms", { name: realm });
    const second = await api.get(`/admin/realms/${realm}/saml-keys`);
    expect(second.body).toHaveLength(1);
    expect(second.body[0].id).not.toBe(first.body[0].id);
  });
});

describe("the responses of this file", () => {
  it("match the OpenAPI document (status, media type, body schema)", () => {
    expect(expectResponsesDocumented(recorded)).toBeGreaterThan(0);
  });
});
