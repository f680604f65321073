import { create } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { ErrorDetailSchema } from "../../../gen/iam/kit/v1/kit_pb.js";
import { describeError, retryAfterHeader } from "./rpc-errors.js";
import { oauthErrorReply } from "../oidc/oauth-errors.js";

const detail = (reason: string) => [{ desc: ErrorDetailSchema, value: create(ErrorDetailSchema, { reason, field: "", oauthError: "" }) }];
const reset = () => new ConnectError("read ECONNRESET", Code.Aborted, undefined, undefined, Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" }));

// A transport failure between the gateway and a service is 503 with Retry-After, never the
// socket's words (DESIGN 4, "Errors"; RFC 6749 section 5.2 for the OAuth endpoints).
describe("describeError", () => {
  it("answers a reset connection 503 unavailable with Retry-After, not 409 with the socket's message", () => {
    const e = describeError(reset());
    expect(e).toEqual({ status: 503, reason: "unavailable", message: "a service is temporarily unavailable", retryAfter: 5 });
    expect(retryAfterHeader(e)).toEqual({ "Retry-After": "5" });
  });

  it("answers a socket error filed under Internal (connect-node's HTTP/2 session errors) 503 too", () => {
    const cause = Object.assign(new Error("Session closed with error code 2"), { code: "ERR_HTTP2_SESSION_ERROR" });
    expect(describeError(new ConnectError("Session closed with error code 2", Code.Internal, undefined, undefined, cause)).status).toBe(503);
  });

  it("keeps a service's answers: its 503 with Retry-After, its 409 conflict, its hidden 500", () => {
    expect(describeError(new ConnectError("the token service is temporarily unavailable", Code.Unavailable, undefined, detail("unavailable"))))
      .toEqual({ status: 503, reason: "unavailable", message: "the token service is temporarily unavailable", retryAfter: 5 });
    expect(describeError(new ConnectError("username taken", Code.AlreadyExists, undefined, detail("conflict"))))
      .toEqual({ status: 409, reason: "conflict", message: "username taken" });
    expect(describeError(new Error("a bug's secret detail"))).toEqual({ status: 500, reason: "internal_error", message: "internal error" });
  });

  it("renders it on an OAuth endpoint as temporarily_unavailable with Retry-After", () => {
    expect(oauthErrorReply(reset(), "acme")).toEqual({
      status: 503,
      headers: { "Cache-Control": "no-store", Pragma: "no-cache", "Retry-After": "5" },
      body: { error: "temporarily_unavailable", error_description: "a service is temporarily unavailable" },
    });
  });
});
