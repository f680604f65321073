import { OpenApiValidator } from "./openapi-validator.js";

/** The e2e check is only as good as its validator: it must refuse what the document does not allow. */
describe("OpenApiValidator", () => {
  const v = new OpenApiValidator();
  const json = "application/json; charset=utf-8";

  it("accepts a documented answer, a fixed path before a parameter", () => {
    expect(v.problems({ method: "GET", path: "/admin/realms/themes", status: 200, contentType: json, body: ["tessera"] })).toEqual([]);
    expect(v.problems({ method: "GET", path: "/admin/realms/acme/users/u1", status: 404, contentType: json, body: { error: "not_found", message: "no user" } })).toEqual([]);
    expect(v.problems({ method: "DELETE", path: "/admin/realms/acme/users/u1", status: 204, contentType: "", body: undefined })).toEqual([]);
  });

  it("takes an unrouted path's 404 and an unrouted method's 405 in the path's error format", () => {
    const error = { error: "method_not_allowed", message: "method not allowed; allowed: GET, POST, HEAD" };
    expect(v.problems({ method: "PATCH", path: "/admin/realms", status: 405, contentType: json, body: error })).toEqual([]);
    expect(v.problems({ method: "GET", path: "/admin/nothing", status: 404, contentType: json, body: { error: "not_found", message: "no route" } })).toEqual([]);
    expect(v.problems({ method: "PATCH", path: "/realms/acme/protocol/openid-connect/token", status: 405, contentType: json, body: { error: "method_not_allowed", error_description: "x" } })).toEqual([]);
    expect(v.problems({ method: "PATCH", path: "/realms/acme/protocol/openid-connect/token", status: 405, contentType: json, body: { nope: 1 } }))
      .toEqual(["PATCH /realms/acme/protocol/openid-connect/token -> 405: body must have required property 'error'", "PATCH /realms/acme/protocol/openid-connect/token -> 405: body must NOT have additional properties"]);
    expect(v.problems({ method: "PATCH", path: "/admin/realms", status: 200, contentType: json, body: {} })).toEqual(["PATCH /admin/realms -> 200: no documented operation"]);
  });

  it("refuses a wrong body, an undocumented path, a wrong media type and a gateway error body on an OAuth endpoint", () => {
    expect(v.problems({ method: "GET", path: "/admin/realms/themes", status: 200, contentType: json, body: [1] })).toEqual(["GET /admin/realms/themes -> 200: body/0 must be string"]);
    expect(v.problems({ method: "GET", path: "/admin/nope", status: 200, contentType: json, body: {} })).toEqual(["GET /admin/nope -> 200: no documented operation"]);
    expect(v.problems({ method: "GET", path: "/admin/realms/themes", status: 200, contentType: "text/html", body: undefined })).toEqual([
      "GET /admin/realms/themes -> 200: text/html, documented application/json",
    ]);
    expect(v.problems({ method: "POST", path: "/realms/acme/protocol/openid-connect/token", status: 400, contentType: json, body: { error: "invalid_grant", message: "x" } }))
      .toEqual(["POST /realms/acme/protocol/openid-connect/token -> 400: body must NOT have additional properties"]);
    expect(v.problems({ method: "GET", path: "/admin/realms/acme", status: 200, contentType: json, body: { name: "acme", extra: true } }).length).toBeGreaterThan(1);
  });
});
