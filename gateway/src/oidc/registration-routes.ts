import type { Request, Response } from "express";
import { create } from "@bufbuild/protobuf";
import { FlowContextSchema } from "../../../gen/iam/token/v1/authorization_pb.js";
import type { RouteTable } from "../http/route-table.js";
import type { PageDeps } from "../pages/flow-pages.js";
import { handle } from "./authorize-routes.js";
import { browserParsers, flowContext, one, realmOf } from "./flow-context.js";
import { pageRealmGuard } from "../pages/page-realm-guard.js";

/**
 * Self-service registration and email verification pages (spec 2.1): the login page's
 * "Register" link (GET with the transaction id; the form posts back with its CSRF token), and the
 * verification link `/realms/:realm/login-actions/verify-email?key=...` (GET) with the "check your
 * email" page's resend action (POST). Pages that follow (consent, TOTP...) post to the
 * authorization endpoint as usual (flow-pages.ts picks the form action per step).
 */
export function addRegistrationRoutes(table: RouteTable, deps: PageDeps): void {
  const pageParsers = [...browserParsers, pageRealmGuard(deps)];
  const flow = deps.rpc.registrationFlow;
  table
    .add("GET", "/realms/:realmName/login-actions/registration", "public", (req, res) => handle(req, res, deps, async () =>
      (await flow.beginRegistration({ context: withTx(req, res, deps, one(req.query, "tx")) })).result), ...pageParsers)
    .add("POST", "/realms/:realmName/login-actions/registration", "public", (req, res) => handle(req, res, deps, async () => {
      const b = req.body as unknown;
      return (await flow.submitRegistration({
        context: flowContext(req, res, deps.publicUrl), username: one(b, "username"), email: one(b, "email"),
        firstName: one(b, "firstName"), lastName: one(b, "lastName"), password: one(b, "password"), confirmation: one(b, "password-confirm"),
      })).result;
    }), ...pageParsers)
    .add("GET", "/realms/:realmName/login-actions/verify-email", "public", (req, res) => handle(req, res, deps, async () =>
      (await flow.verifyEmail({ context: flowContext(req, res, deps.publicUrl), key: one(req.query, "key").slice(0, 4096) })).result), ...pageParsers)
    .add("POST", "/realms/:realmName/login-actions/verify-email", "public", (req, res) => handle(req, res, deps, async () =>
      (await flow.resendVerificationEmail({ context: flowContext(req, res, deps.publicUrl) })).result), ...pageParsers);
}

/** The flow context of a GET naming its transaction in the query (no CSRF token: nothing changes). */
function withTx(req: Request, res: Response, deps: PageDeps, tx: string) {
  return create(FlowContextSchema, { ...flowContext(req, res, deps.publicUrl), transactionId: tx.slice(0, 200), realm: realmOf(req) });
}
