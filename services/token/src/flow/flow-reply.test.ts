import { clientResponse } from "./flow-reply.js";

describe("clientResponse", () => {
  it("names the native app's scheme as the form-action of the redirect to it", () => {
    expect(clientResponse("com.example.app:/cb", "query", { code: "c", state: "s" })).toEqual({
      outcome: { kind: "redirect", uri: "com.example.app:/cb?code=c&state=s" }, formActionOrigin: "com.example.app:",
    });
  });
});
