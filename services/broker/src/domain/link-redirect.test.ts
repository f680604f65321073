import { isRegisteredRedirect, withLinkError } from "./link-redirect.js";

describe("account link redirect", () => {
  const registered = ["https://app.example/cb", "http://localhost:3000/account/", "javascript:alert(1)"];

  it("takes only an exactly registered, absolute URI without a fragment", () => {
    expect(isRegisteredRedirect(registered, "https://app.example/cb")).toBe(true);
    expect(isRegisteredRedirect(registered, "http://localhost:3000/account/")).toBe(true);
    expect(isRegisteredRedirect(registered, "https://app.example/cb/")).toBe(false);
    expect(isRegisteredRedirect(registered, "https://app.example/cb?x=1")).toBe(false);
    expect(isRegisteredRedirect(registered, "https://evil.example/cb")).toBe(false);
    expect(isRegisteredRedirect(registered, "javascript:alert(1)")).toBe(false);
    expect(isRegisteredRedirect(registered, "")).toBe(false);
    expect(isRegisteredRedirect(["https://app.example/cb#x"], "https://app.example/cb#x")).toBe(false);
  });

  it("adds link_error and nonce after the URI's own query", () => {
    expect(withLinkError("https://app.example/cb", "not_logged_in", "n 1")).toBe("https://app.example/cb?link_error=not_logged_in&nonce=n+1");
    expect(withLinkError("https://app.example/cb?tab=2", "already_linked", "n")).toBe("https://app.example/cb?tab=2&link_error=already_linked&nonce=n");
  });
});
