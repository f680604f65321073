import type { RouteTable } from "../http/route-table.js";
import type { PageDeps } from "../pages/flow-pages.js";
import { handle, step } from "./authorize-routes.js";
import { browserParsers, flowContext, one, realmOf } from "./flow-context.js";
import { pageRealmGuard } from "../pages/page-realm-guard.js";

/**
 * The device verification page (RFC 8628 section 3.3): `?user_code=` (verification_uri_complete)
 * or the typed code; login and consent forms post back here.
 */
export function addDeviceRoutes(table: RouteTable, deps: PageDeps): void {
  const pageParsers = [...browserParsers, pageRealmGuard(deps)];
  const path = "/realms/:realmName/device";
  const action = (realm: string) => `/realms/${realm}/device`;
  table
    .add("GET", path, "public", (req, res) => handle(req, res, deps, async () =>
      (await deps.rpc.authorizationFlow.beginDeviceVerification({
        context: flowContext(req, res, deps.publicUrl), userCode: one(req.query, "user_code"),
      })).result, action(realmOf(req))), ...pageParsers)
    .add("POST", path, "public", (req, res) => handle(req, res, deps, () => step(req, res, deps), action(realmOf(req))), ...pageParsers);
}
