import { formActionSourceOf } from "./form-action-source.js";

/** What the hosted pages' CSP form-action names for a redirect or post URI. */
describe("formActionSourceOf", () => {
  it("is an http(s) URI's origin", () => {
    expect(formActionSourceOf("https://app.example.com/cb?a=1")).toBe("https://app.example.com");
    expect(formActionSourceOf("https://app.example.com:8443/cb?x=1")).toBe("https://app.example.com:8443");
    expect(formActionSourceOf("http://127.0.0.1:3998/cb")).toBe("http://127.0.0.1:3998");
  });

  it("is a private-use URI's scheme, which has no origin (RFC 8252 section 7.1)", () => {
    expect(new URL("com.example.app:/cb").origin).toBe("null");
    expect(formActionSourceOf("com.example.app:/cb")).toBe("com.example.app:");
    expect(formActionSourceOf("Com.Example.App:/cb")).toBe("com.example.app:");
  });

  it("is empty for what is no URI", () => {
    expect(formActionSourceOf("")).toBe("");
    expect(formActionSourceOf("/relative")).toBe("");
    expect(formActionSourceOf("not a url")).toBe("");
  });
});
