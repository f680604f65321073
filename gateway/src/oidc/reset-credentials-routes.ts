import type { Request, Response } from "express";
import { create } from "@bufbuild/protobuf";
import { FlowContextSchema } from "../../../gen/iam/token/v1/authorization_pb.js";
import type { RouteTable } from "../http/route-table.js";
import type { PageDeps } from "../pages/flow-pages.js";
import { pageRealmGuard } from "../pages/page-realm-guard.js";
import { handle } from "./authorize-routes.js";
import { browserParsers, flowContext, one, realmOf } from "./flow-context.js";

/**
 * Forgot password (Keycloak's reset credentials) and "Back to sign in": the login page's "Forgot
 * password?" link (GET with the transaction id; the form posts back with its CSRF token), the
 * mailed link `/realms/:realm/login-actions/reset-password?key=...` (GET shows the new password
 * form; its POST carries the key, which is the secret), and `authenticate?tx=` (the login page of
 * the transaction again, from the registration and forgot-password pages).
 */
export function addResetCredentialsRoutes(table: RouteTable, deps: PageDeps): void {
  const pageParsers = [...browserParsers, pageRealmGuard(deps)];
  const flow = deps.rpc.resetCredentialsFlow;
  const resetAction = (req: Request) => `/realms/${realmOf(req)}/login-actions/reset-password`;
  table
    .add("GET", "/realms/:realmName/login-actions/reset-credentials", "public", (req, res) => handle(req, res, deps, async () =>
      (await flow.beginResetCredentials({ context: withTx(req, res, deps, one(req.query, "tx")) })).result), ...pageParsers)
    .add("POST", "/realms/:realmName/login-actions/reset-credentials", "public", (req, res) => handle(req, res, deps, async () =>
      (await flow.submitResetCredentials({ context: flowContext(req, res, deps.publicUrl), username: one(req.body as unknown, "username") })).result), ...pageParsers)
    .add("GET", "/realms/:realmName/login-actions/reset-password", "public", (req, res) => handle(req, res, deps, async () =>
      (await flow.openResetLink({ context: flowContext(req, res, deps.publicUrl), key: one(req.query, "key") })).result, resetAction(req)), ...pageParsers)
    .add("POST", "/realms/:realmName/login-actions/reset-password", "public", (req, res) => handle(req, res, deps, async () => {
      const b = req.body as unknown;
      return (await flow.submitResetPassword({
        context: flowContext(req, res, deps.publicUrl), key: one(b, "key"), newPassword: one(b, "password-new"), confirmation: one(b, "password-confirm"),
      })).result;
    }, resetAction(req)), ...pageParsers)
    // Keycloak's action token endpoint: the execute-actions-email link (its key is the secret).
    .add("GET", "/realms/:realmName/login-actions/action-token", "public", (req, res) => handle(req, res, deps, async () =>
      (await flow.openActionLink({ context: flowContext(req, res, deps.publicUrl), key: one(req.query, "key") })).result), ...pageParsers)
    .add("GET", "/realms/:realmName/login-actions/authenticate", "public", (req, res) => handle(req, res, deps, async () =>
      (await flow.returnToLogin({ context: withTx(req, res, deps, one(req.query, "tx")) })).result), ...pageParsers);
}

/** The flow context of a GET naming its transaction in the query (no CSRF token: nothing changes). */
function withTx(req: Request, res: Response, deps: PageDeps, tx: string) {
  return create(FlowContextSchema, { ...flowContext(req, res, deps.publicUrl), transactionId: tx.slice(0, 200), realm: realmOf(req) });
}
