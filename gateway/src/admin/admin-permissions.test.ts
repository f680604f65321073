import pino from "pino";
import { Registry } from "prom-client";
import { createGateway } from "../app.js";
import { HttpMetrics } from "../http/http-metrics.js";
import type { AdminTokens } from "./admin-tokens.js";
import type { RpcClients } from "../rpc-clients.js";
import { allows, needOf, type AdminAccess } from "./admin-permissions.js";

const routes = createGateway({
  rpc: {} as RpcClients, logger: pino({ level: "silent" }), registries: [], httpMetrics: new HttpMetrics(new Registry()),
  apiKeySha256: "", adminTokens: {} as AdminTokens, publicUrl: "http://localhost",
}).routes().filter((r) => r.auth === "admin");

const access = (realms: Record<string, string[]>, serverAdmin = false): AdminAccess => ({ serverAdmin, realms: new Map(Object.entries(realms)) });

describe("admin permissions", () => {
  it("gives every realm route of the table an area, and keeps only these for server admins", () => {
    const server = routes.filter((r) => needOf(r.method, r.path).kind === "server").map((r) => `${r.method} ${r.path}`);
    expect(server.sort()).toEqual([
      "DELETE /admin/admins/:adminId", "DELETE /admin/realms/:realmName", "GET /admin/admins", "GET /admin/admins/:adminId",
      "POST /admin/admins", "POST /admin/realms", "POST /admin/realms/import", "PUT /admin/admins/:adminId",
    ]);
    expect(routes.length).toBeGreaterThan(150);
  });

  it("reads the area and whether the method changes it from the path", () => {
    expect(needOf("GET", "/admin/realms/:realmName/users")).toEqual({ kind: "realm", area: "users", write: false });
    expect(needOf("POST", "/admin/realms/:realmName/groups")).toEqual({ kind: "realm", area: "users", write: true });
    expect(needOf("PUT", "/admin/realms/:realmName/clients/:clientId/roles/:roleName")).toEqual({ kind: "realm", area: "clients", write: true });
    expect(needOf("GET", "/admin/realms/:realmName/roles")).toEqual({ kind: "realm", area: "realm", write: false });
    expect(needOf("DELETE", "/admin/realms/:realmName/events")).toEqual({ kind: "realm", area: "events", write: true });
    expect(needOf("GET", "/admin/realms/:realmName/identity-providers/:alias")).toEqual({ kind: "realm", area: "identity-providers", write: false });
    expect(needOf("POST", "/admin/realms/:realmName/users/:userId/impersonation")).toEqual({ kind: "realm", area: "impersonation", write: true });
    expect(needOf("GET", "/admin/realms/:realmName/clients/:clientId/evaluate-scopes/generate-example-access-token")).toEqual({ kind: "realm", area: "users", write: false });
    expect(needOf("GET", "/admin/realms/:realmName/export")).toEqual({ kind: "realm", area: "realm", write: true });
    expect(needOf("GET", "/admin/realms")).toEqual({ kind: "any" });
    expect(needOf("GET", "/admin/realms/:realmName/some-new-thing")).toEqual({ kind: "server" });
  });

  it("lets manage include view, realm-admin include all, and nothing cross realms", () => {
    const viewer = access({ acme: ["view-users"] });
    expect(allows(viewer, { kind: "realm", area: "users", write: false }, "acme")).toBe(true);
    expect(allows(viewer, { kind: "realm", area: "users", write: true }, "acme")).toBe(false);
    expect(allows(viewer, { kind: "realm", area: "clients", write: false }, "acme")).toBe(false);
    expect(allows(viewer, { kind: "realm", area: "users", write: false }, "other")).toBe(false);
    expect(allows(viewer, { kind: "any" }, "")).toBe(true);
    expect(allows(viewer, { kind: "server" }, "")).toBe(false);
    const manager = access({ acme: ["manage-clients"] });
    expect(allows(manager, { kind: "realm", area: "clients", write: false }, "acme")).toBe(true);
    expect(allows(manager, { kind: "realm", area: "clients", write: true }, "acme")).toBe(true);
    expect(allows(manager, { kind: "realm", area: "impersonation", write: true }, "acme")).toBe(false);
    const owner = access({ acme: ["realm-admin"] });
    for (const area of ["realm", "users", "clients", "events", "identity-providers", "impersonation"] as const) {
      expect(allows(owner, { kind: "realm", area, write: true }, "acme")).toBe(true);
    }
    expect(allows(owner, { kind: "server" }, "")).toBe(false);
    expect(allows(access({}, true), { kind: "server" }, "")).toBe(true);
  });
});
