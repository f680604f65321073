import { oauthError, oauthReply } from "./oauth-errors.js";

describe("oauthReply", () => {
  it("renders a rejection and a synchronous throw alike (RFC 6749 section 5.2), and passes a reply through", async () => {
    const refused = oauthError("invalid_request", "grant_type appears twice");
    const expected = { status: 400, body: { error: "invalid_request", error_description: "grant_type appears twice" }, headers: { "Cache-Control": "no-store", Pragma: "no-cache" } };
    await expect(oauthReply("acme", () => Promise.reject(refused))).resolves.toEqual(expected);
    await expect(oauthReply("acme", () => { throw refused; })).resolves.toEqual(expected);
    await expect(oauthReply("acme", () => Promise.resolve({ status: 200, body: { ok: true } }))).resolves.toEqual({ status: 200, body: { ok: true } });
  });

  it("answers invalid_client 401 with a Basic challenge naming the realm", async () => {
    const reply = await oauthReply("acme", () => { throw oauthError("invalid_client", "client authentication failed", 401); });
    expect(reply.status).toBe(401);
    expect(reply.headers?.["WWW-Authenticate"]).toBe('Basic realm="acme"');
  });
});
