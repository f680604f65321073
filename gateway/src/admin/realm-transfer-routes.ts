import type { Request } from "express";
import type { RouteTable } from "../http/route-table.js";
import { GatewayError } from "../http/rpc-errors.js";
import type { RpcClients } from "../rpc-clients.js";
import type { RealmLooks } from "../pages/realm-looks.js";
import type { ClientOrigins } from "../oidc/cors.js";
import { realmJson } from "./realm-routes.js";
import { streamRealmExport } from "./transfer/realm-export-stream.js";
import { lazyImport } from "../../../services/kit/src/runtime/lazy-import.js";
import { fromKeycloak, isKeycloakRealm } from "./transfer/keycloak-realm.js";
import type { Problem } from "../../../services/kit/src/realm-transfer/document-schema.js";

// The import checks documents with the realm document's zod schema (zod: some 95 modules, 830 KB
// of source): loaded by the first import rather than at start (faster cold start).
const importRun = lazyImport(() => import("./transfer/realm-import-run.js"));

export const REALM_IMPORT_PATH = "/admin/realms/import";
/** A realm document with 100,000 users and their hashes is about 40 MB. */
export const REALM_IMPORT_BODY_LIMIT = "256mb";

/**
 * Realm export and import (spec 4.1). Added before the realm routes: "/admin/realms/import" is a
 * fixed path that "/admin/realms/:realmName" would otherwise take ("import" is a reserved name).
 */
export function addRealmTransferRoutes(table: RouteTable, rpc: RpcClients, looks: RealmLooks, origins: ClientOrigins): void {
  table
    .add("POST", REALM_IMPORT_PATH, "admin", async (req) => {
      const overwrite = boolParam(req, "overwrite");
      const format = strParam(req, "format");
      if (format !== "" && format !== "keycloak" && format !== "tessera") {
        throw new GatewayError(400, "invalid_request", "format must be tessera or keycloak", "format");
      }
      if (typeof req.body !== "object" || req.body === null || Array.isArray(req.body)) {
        throw new GatewayError(400, "invalid_request", "the body must be a realm document (a JSON object)");
      }
      const keycloak = format === "keycloak" || (format === "" && isKeycloakRealm(req.body));
      const { importRealm, InvalidDocument } = await importRun();
      const report: Problem[] = [];
      try {
        const doc = keycloak ? fromKeycloak(req.body as Record<string, unknown>, report) : req.body;
        const out = await importRealm(rpc, doc, overwrite, report);
        looks.forget(out.realm.name);
        origins.forget(out.realm.name);
        return { status: 201, body: { ...realmJson(out.realm), importReport: out.report } };
      } catch (e) {
        if (e instanceof InvalidDocument) {
          return { status: 400, body: { error: "invalid_document", message: e.message, problems: e.problems } };
        }
        throw e;
      }
    })
    .add("GET", "/admin/realms/:realmName/export", "admin", async (req, res) => {
      await streamRealmExport(rpc, String(req.params.realmName), {
        includeUsers: boolParam(req, "includeUsers"), includeSecrets: boolParam(req, "includeSecrets"),
      }, res);
    });
}

function strParam(req: Request, name: string): string {
  const v = req.query[name];
  if (v === undefined) return "";
  if (typeof v !== "string") throw new GatewayError(400, "invalid_request", `${name} must be given once`, name);
  return v;
}

/** Spec 4.1's boolean query parameters, default false. */
function boolParam(req: Request, name: string): boolean {
  const v = strParam(req, name);
  if (v === "" || v === "false") return false;
  if (v === "true") return true;
  throw new GatewayError(400, "invalid_request", `${name} must be true or false`, name);
}
