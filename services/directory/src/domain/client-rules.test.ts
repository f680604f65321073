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

  it("checks web origins", () => {
    ok(() => checkWebOrigin("o", "https://a.example.test"));
    ok(() => checkWebOrigin("o", "http://localhost:3000"));
    ok(() => checkWebOrigin("o", "+"));
    bad(() => checkWebOrigin("o", "https://a.example.test/"));
    bad(() => checkWebOrigin("o", "*"));
    bad(() => checkWebOrigin("o", "ftp://a.example.test"));
  });

  it("checks the backchannel logout URI", () => {
    ok(() => checkBackchannelUri(""));
    ok(() => checkBackchannelUri("https://rp.example.test/bcl"));
    ok(() => checkBackchannelUri("http://localhost:9000/bcl"));
    bad(() => checkBackchannelUri("http://rp.example.test/bcl"));
    bad(() => checkBackchannelUri("https://rp.example.test/bcl#x"));
  });
});
