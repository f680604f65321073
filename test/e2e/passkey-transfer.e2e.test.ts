import { randomUUID } from "node:crypto";
import * as oidc from "openid-client";
import { adminApi, recordResponses, uniqueName } from "./support/http.js";
import { BrowserSession, type PageResponse } from "./support/browser-session.js";
import { startEmbeddedServer, type TestServer } from "./support/embedded-server.js";
import { exportSchemaProblems } from "./support/realm-export-schema.js";
import { expectResponsesDocumented } from "./support/openapi-check.js";
import { SoftAuthenticator } from "./support/soft-authenticator.js";

const recorded = recordResponses();

const decode = (v: string) => v.replace(/&quot;/g, "\"").replace(/&#39;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");

// Passkeys in the realm export and import (spec 4.1): public keys are not secrets, so every export
// carries them, and an imported passkey signs in with its sign counter kept. Embedded mode only:
// the relying-party id is the public URL's host, which is localhost here.
describe("passkeys through a realm export and import", () => {
  const CB = "http://localhost:3996/cb";
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;

  beforeAll(async () => {
    server = await startEmbeddedServer("passkey-transfer");
    api = adminApi(server.url, server.apiKey);
  }, 120_000);
  afterAll(async () => server?.stop());

  async function realmWithUser(): Promise<{ realm: string; userId: string }> {
    const realm = uniqueName("pk-xfer");
    expect((await api.post("/admin/realms", { name: realm })).status).toBe(201);
    expect((await api.post(`/admin/realms/${realm}/clients`, { clientId: "web", clientType: "PUBLIC", redirectUris: [CB] })).status).toBe(201);
    const user = await api.post(`/admin/realms/${realm}/users`, { username: "erin", password: "Erin-Secret-1" });
    expect(user.status).toBe(201);
    return { realm, userId: user.body.id as string };
  }

  /** A copy of the realm's export with its users: the recorded response stays as it came. */
  async function exportOf(realm: string) {
    const res = await api.get(`/admin/realms/${realm}/export?includeUsers=true`);
    expect(res.status).toBe(200);
    return structuredClone(res.body);
  }

  function passkeyDoc(a: SoftAuthenticator, signCount: number) {
    return {
      type: "passkey", id: randomUUID(), credentialId: a.credentialId, publicKey: a.publicKey, signCount,
      transports: ["internal"], label: "Erin's laptop", backedUp: false, createdAt: 1_750_000_000_000, lastUsedAt: 0,
    };
  }

  /** Through the hosted pages: "Sign in with a passkey", then the assertion; the page's answer. */
  async function passkeyLogin(realm: string, a: SoftAuthenticator, counter: number, userId: string): Promise<{ res: PageResponse; verifier: string }> {
    const config = await oidc.discovery(new URL(`${server.url}/realms/${realm}`), "web", undefined, oidc.None(), { execute: [oidc.allowInsecureRequests] });
    const verifier = oidc.randomPKCECodeVerifier();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: CB, scope: "openid", state: oidc.randomState(),
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: "S256",
    });
    const browser = new BrowserSession(server.url);
    const login = await browser.follow(await browser.get(url.href));
    expect(login.status).toBe(200);
    const begin = await browser.follow(await browser.submit(login, {}, 1));
    const form = /<form[^>]*id="passkey-form"[^>]*data-options="([^"]*)"/.exec(begin.text);
    expect(form).not.toBeNull();
    const options = JSON.parse(decode(form![1]!)) as { challenge: string; rpId: string };
    expect(options.rpId).toBe("localhost");
    const res = await browser.submit(begin, { credential: a.assert(options, new URL(server.url).origin, counter, userId) });
    return { res, verifier };
  }

  it("carries a passkey through export and import; it is listed, re-exported unchanged and signs in", async () => {
    const { realm, userId } = await realmWithUser();
    const authenticator = new SoftAuthenticator();
    const doc = await exportOf(realm);
    const passkey = passkeyDoc(authenticator, 5);
    doc.users[0].credentials.push(passkey);
    expect(exportSchemaProblems(doc)).toEqual([]);
    expect((await api.del(`/admin/realms/${realm}`)).status).toBe(200);
    expect((await api.post("/admin/realms/import", doc)).status).toBe(201);

    const listed = await api.get(`/admin/realms/${realm}/users/${userId}/passkeys`);
    expect([listed.status, listed.body]).toEqual([200, [{
      id: passkey.id, type: "webauthn-passwordless", userLabel: "Erin's laptop", credentialId: authenticator.credentialId,
      transports: ["internal"], signCount: 5, backedUp: false, createdDate: 1_750_000_000_000, lastUsedDate: null,
    }]]);
    const again = await exportOf(realm);
    expect(again.users[0].credentials).toEqual([expect.objectContaining({ type: "password" }), passkey]);

    // The imported counter holds: an assertion at or below it is a cloned authenticator's.
    const stale = await passkeyLogin(realm, authenticator, 5, userId);
    expect(stale.res.status).toBe(200);
    expect(stale.res.text).toContain("passkey-form");
    const { res, verifier } = await passkeyLogin(realm, authenticator, 6, userId);
    expect(res.status).toBe(302);
    const callback = new URL(res.location);
    expect(`${callback.origin}${callback.pathname}`).toBe(CB);
    const config = await oidc.discovery(new URL(`${server.url}/realms/${realm}`), "web", undefined, oidc.None(), { execute: [oidc.allowInsecureRequests] });
    const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: callback.searchParams.get("state")! });
    expect(tokens.claims()!.sub).toBe(userId);
    const used = await api.get(`/admin/realms/${realm}/users/${userId}/passkeys`);
    expect(used.body[0].signCount).toBe(6);
  }, 90_000);

  it("refuses a document whose passkeys share a credential id, naming the second", async () => {
    const { realm } = await realmWithUser();
    const authenticator = new SoftAuthenticator();
    const doc = await exportOf(realm);
    doc.realm.name = `${realm}-copy`;
    doc.users[0].id = randomUUID();
    doc.users[0].credentials.push(passkeyDoc(authenticator, 0), passkeyDoc(authenticator, 0));
    const res = await api.post("/admin/realms/import", doc);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("invalid_document");
    expect(res.body.problems).toEqual(expect.arrayContaining([{
      path: "$.users[0].credentials[2].credentialId",
      message: `passkey credential id "${authenticator.credentialId}" is also used at $.users[0].credentials[1].credentialId`,
    }]));
    const malformed = await exportOf(realm);
    malformed.realm.name = `${realm}-bad`;
    malformed.users[0].credentials.push({ ...passkeyDoc(authenticator, 0), publicKey: "not base64url, but long enough" });
    const bad = await api.post("/admin/realms/import", malformed);
    expect([bad.status, bad.body.problems.map((p: { path: string }) => p.path)]).toEqual([400, ["$.users[0].credentials[1].publicKey"]]);
  }, 60_000);
});

describe("the responses of this file", () => {
  it("match the OpenAPI document (status, media type, body schema)", () => {
    expect(expectResponsesDocumented(recorded)).toBeGreaterThan(0);
  });
});
