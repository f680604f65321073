import { clientResponse, formActionSourceOf } from "./flow-reply.js";

/** What the gateway puts into the hosted pages' CSP form-action for a flow's redirect URI. */
describe("formActionSourceOf", () => {
  it("is an http(s) redirect URI's origin", () => {
    expect(formActionSourceOf("https://app.example.com/cb?a=1")).toBe("https://app.example.com");
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
  });
});

describe("clientResponse", () => {
  it("names the native app's scheme as the form-action of the redirect to it", () => {
    expect(clientResponse("com.example.app:/cb", "query", { code: "c", state: "s" })).toEqual({
      outcome: { kind: "redirect", uri: "com.example.app:/cb?code=c&state=s" }, formActionOrigin: "com.example.app:",
    });
  });
});
