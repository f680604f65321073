import { IamError } from "../../../kit/src/errors.js";
import { checkBackchannelUri, checkClientId, checkRedirectUri, checkWebOrigin, resolveClientType } from "./client-rules.js";

const ok = (fn: () => unknown) => expect(fn).not.toThrow();
const bad = (fn: () => unknown) => expect(fn).toThrow(IamError);

describe("client rules", () => {
  it("checks clientId: slug, at least 2 characters", () => {
    ok(() => checkClientId("ab"));
    ok(() => checkClientId("my-app.v2_x"));
    bad(() => checkClientId("a"));
    bad(() => checkClientId("App"));
    bad(() => checkClientId("-ab"));
    bad(() => checkClientId(undefined));
  });

  it("resolves clientType and the migration field type", () => {
    expect(resolveClientType({})).toBe("CONFIDENTIAL");
    expect(resolveClientType({ type: "public" })).toBe("PUBLIC");
    expect(resolveClientType({ clientType: "PUBLIC", type: "public" })).toBe("PUBLIC");
    bad(() => resolveClientType({ clientType: "PUBLIC", type: "confidential" }));
    bad(() => resolveClientType({ type: "Public" }));
    bad(() => resolveClientType({ clientType: "public" }));
  });

  it.each([
    "https://a.example.test/cb", "http://localhost/cb", "http://127.0.0.1:8080/cb", "http://[::1]/cb",
    "com.example.app:/cb", "com.example.app://cb", "https://a.example.test/cb?x=1",
  ])("accepts the redirect URI %s", (uri) => ok(() => checkRedirectUri("r", uri)));

  it.each([
    "http://a.example.test/cb", "http://localhost.evil.test/cb", "https://a.example.test/cb#x", "https://a.example.test/#",
    "https://a.example.test/*", "javascript:alert(1)", "JaVaScRiPt:alert(1)", "data:text/html,x", "vbscript:x",
    "FILE:///etc/passwd", "relative/cb", "", "myapp:/cb", "https://a.example.test/c b",
  ])("refuses the redirect URI %j", (uri) => bad(() => checkRedirectUri("r", uri)));

  // Exactly what gateway/src/oidc/cors.ts can match: "*", "+", or an origin as browsers send it.
  it.each([
    "*", "+", "https://a.example.test", "http://localhost:3000", "https://my_app.example.test", "https://xn--bcher-kva.example",
    "http://127.0.0.1:8080", "http://[::1]:3000", "https://a.example.test:8443",
  ])("accepts the web origin %j", (origin) => expect(checkWebOrigin("o", origin)).toBe(origin));

  const RULE = 'an origin like https://app.example.com (scheme, host and port only, as browsers send it), "+" (the origins of the redirect URIs) or "*" (any origin)';
  it.each([
    ["https://*.example.com", `o must not contain a wildcard; it must be ${RULE}`],
    ["*.example.com", `o must not contain a wildcard; it must be ${RULE}`],
    ["https://app.example.com:*", `o must not contain a wildcard; it must be ${RULE}`],
    ["**", `o must not contain a wildcard; it must be ${RULE}`],
    ["https://a.example.test/", `o must be ${RULE}`],
    ["https://a.example.test/path", `o must be ${RULE}`],
    ["https://A.example.test", `o must be ${RULE}`],
    ["https://a.example.test:443", `o must be ${RULE}`],
    ["https://a$b.example.test", `o must be ${RULE}`],
    ["https://a!b.example.test", `o must be ${RULE}`],
    ["ftp://a.example.test", `o must be ${RULE}`],
    ["null", `o must be ${RULE}`],
    ["", `o must be ${RULE}`],
    ["++", `o must be ${RULE}`],
  ])("refuses the web origin %j", (origin, message) => {
    expect(() => checkWebOrigin("o", origin)).toThrow(IamError);
    expect(() => checkWebOrigin("o", origin)).toThrow(message);
  });

  it("checks the backchannel logout URI", () => {
    ok(() => checkBackchannelUri(""));
    ok(() => checkBackchannelUri("https://rp.example.test/bcl"));
    ok(() => checkBackchannelUri("http://localhost:9000/bcl"));
    bad(() => checkBackchannelUri("http://rp.example.test/bcl"));
    bad(() => checkBackchannelUri("https://rp.example.test/bcl#x"));
  });
});
