import * as oidc from "openid-client";
import { adminApi, uniqueName } from "./support/http.js";
import { targets } from "./support/targets.js";
import type { TestServer } from "./support/embedded-server.js";
import { BrowserSession, parseForms } from "./support/browser-session.js";

/**
 * Request objects (OIDC Core 1.0 section 6, RFC 9101) with openid-client as the relying party.
 */
for (const target of targets()) describe(`OIDC request objects (${target.mode})`, () => {
  let server: TestServer;
  let realm: string;
  let api: ReturnType<typeof adminApi>;
  const CB = "http://localhost:3998/cb";

  beforeAll(async () => {
    server = await target.start("oidc-request-objects");
    api = adminApi(server.url, server.apiKey);
    realm = uniqueName("jar");
    expect((await api.post("/admin/realms", { name: realm })).status).toBe(201);
    expect((await api.post(`/admin/realms/${realm}/clients`, { clientId: "strict", clientType: "PUBLIC", redirectUris: [CB] })).status).toBe(201);
  }, 90_000);
  afterAll(async () => server?.stop());

  const authUrl = (params: Record<string, string>) => `${server.url}/realms/${realm}/protocol/openid-connect/auth?${new URLSearchParams(params)}`;
  const issuer = () => `${server.url}/realms/${realm}`;

  it("answers a refused unsigned object with an auto-submitting form post carrying the object's state", async () => {
    const payload = {
      client_id: "strict", response_type: "code", scope: "openid", redirect_uri: CB,
      response_mode: "form_post", state: "st-in-object", nonce: "n-1",
    };
    const res = await new BrowserSession(server.url).get(authUrl({
      client_id: "strict", response_type: "code", scope: "openid", request: unsigned(payload),
    }));
    expect(res.status).toBe(200);
    expect(res.location).toBe("");
    const [form] = parseForms(res.text);
    expect(form).toEqual({
      action: CB, method: "post",
      fields: {
        error: "request_not_supported",
        error_description: "The request parameter is not supported.",
        state: "st-in-object", iss: issuer(),
      },
    });
  });
});

/** An unsigned request object (alg none, RFC 7519 section 6). */
export function unsigned(payload: Record<string, unknown>): string {
  const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");
  return `${b64({ alg: "none" })}.${b64(payload)}.`;
}

void oidc;
