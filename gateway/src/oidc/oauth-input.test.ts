import { GatewayError } from "../http/rpc-errors.js";
import { BearerRequestError, oauthErrorReply } from "./oauth-errors.js";
import { bearerToken, type OAuthHttpRequest } from "./oauth-input.js";

/** How a protected resource (userinfo) reads its access token: RFC 6750 sections 2 and 3.1. */
describe("bearerToken", () => {
  const req = (method: string, authorization: string | undefined, body: Record<string, unknown> | undefined): OAuthHttpRequest => ({
    method, params: { realmName: "acme" }, body, headers: authorization === undefined ? {} : { authorization },
  });

  it("reads the token from the header (2.1) or, on POST, from the form body (2.2)", () => {
    expect(bearerToken(req("GET", "Bearer abc.def-_~+/=", undefined))).toBe("abc.def-_~+/=");
    expect(bearerToken(req("POST", "bearer abc", {}))).toBe("abc");
    expect(bearerToken(req("POST", undefined, { access_token: "xyz" }))).toBe("xyz");
    // The form body is no method on GET (section 2.2 names POST-like requests with a form).
    expect(bearerToken(req("GET", undefined, { access_token: "xyz" }))).toBe("");
  });

  it("answers \"\" when the request has no Bearer credentials at all (section 3.1)", () => {
    expect(bearerToken(req("GET", undefined, undefined))).toBe("");
    expect(bearerToken(req("POST", undefined, {}))).toBe("");
    expect(bearerToken(req("GET", "Basic eDp5", undefined))).toBe("");
  });

  it("refuses a token sent by both methods as invalid_request (section 2: MUST NOT use more than one)", () => {
    const both = () => bearerToken(req("POST", "Bearer abc", { access_token: "abc" }));
    expect(both).toThrow(BearerRequestError);
    expect(both).toThrow("send the access token in the Authorization header or the form body, not both");
    expect(() => bearerToken(req("POST", "Bearer abc", { access_token: "" }))).toThrow(BearerRequestError);
    expect(() => bearerToken(req("POST", undefined, { access_token: ["a", "b"] }))).toThrow("access_token must be sent once");
  });

  it("refuses a Bearer header that is not a b64token as invalid_token", () => {
    for (const h of ["Bearer", "Bearer ", "Bearer a b", "Bearer a\"b"]) {
      let caught: unknown;
      try {
        bearerToken(req("GET", h, undefined));
      } catch (e) {
        caught = e;
      }
      expect(caught).toBeInstanceOf(GatewayError);
      expect(caught).not.toBeInstanceOf(BearerRequestError);
      expect((caught as GatewayError).reason).toBe("invalid_token");
      expect((caught as GatewayError).status).toBe(401);
    }
  });
});

describe("oauthErrorReply for a protected resource", () => {
  it("renders BearerRequestError as 400 invalid_request with a Bearer challenge naming it (section 3.1)", () => {
    expect(oauthErrorReply(new BearerRequestError("use one \"method\""), "acme")).toEqual({
      status: 400,
      body: { error: "invalid_request", error_description: "use one \"method\"" },
      headers: {
        "Cache-Control": "no-store", Pragma: "no-cache",
        "WWW-Authenticate": "Bearer realm=\"acme\", error=\"invalid_request\", error_description=\"use one method\"",
      },
    });
  });

  it("keeps other invalid_request answers free of a challenge (they are not a resource's)", () => {
    expect(oauthErrorReply(new GatewayError(400, "invalid_request", "grant_type is required"), "acme")).toEqual({
      status: 400,
      body: { error: "invalid_request", error_description: "grant_type is required" },
      headers: { "Cache-Control": "no-store", Pragma: "no-cache" },
    });
  });
});
