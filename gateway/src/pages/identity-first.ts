import type { NextFunction, Request, RequestHandler, Response } from "express";
import { clone } from "@bufbuild/protobuf";
import { FlowResultSchema, FlowStep } from "../../../gen/iam/token/v1/authorization_pb.js";
import { currentContext } from "../../../services/kit/src/context.js";
import { flowContext, one, realmOf } from "../oidc/flow-context.js";
import type { RpcClients } from "../rpc-clients.js";
import type { LoginOptions } from "./login-options.js";
import { sendFailure, sendFlowResult, type PageDeps } from "./flow-pages.js";
import { flowAsksUsernameFirst } from "./flow-identity-first.js";

/**
 * Whether the login page asks for the username first (Keycloak 26's identity-first login with
 * organizations): in a realm with organizations, so that an email whose domain belongs to one can
 * be sent to that organization's identity provider before any password is typed; or when the
 * realm's browser flow identifies by a username step (flow-identity-first.ts). When the
 * directory does not answer, the page is the usual one (username and password).
 */
export async function identityFirstLogin(rpc: RpcClients, options: LoginOptions, realm: string, browserFlow?: string): Promise<boolean> {
  try {
    return await options.hasOrganizations(realm) || await flowAsksUsernameFirst(rpc, realm, browserFlow);
  } catch (err) {
    currentContext()?.logger.warn({ err, realm }, "login page shown without the identity-first step");
    return false;
  }
}

/**
 * The identity-first step's post (`step=login` without a password field): an email whose verified
 * domain belongs to an enabled organization with an identity provider goes straight to that
 * provider's broker login (continuing this transaction, with its CSRF token, which the broker
 * checks); any other username goes to the password step, the login page with the username filled.
 * A post with a password field is the usual login and goes on to the token service.
 */
export function identityFirstStep(deps: PageDeps, action: (realm: string) => string): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const body = req.body as Record<string, unknown> | undefined;
    if (!body || typeof body !== "object" || !one(body, "tx") || one(body, "step") !== "login" || "password" in body) return next();
    route(req, res, deps, action).catch((e: unknown) => sendFailure(res, deps, realmOf(req), e).catch(next));
  };
}

async function route(req: Request, res: Response, deps: PageDeps, action: (realm: string) => string): Promise<void> {
  const realm = realmOf(req);
  const username = one(req.body, "username").trim().slice(0, 255);
  if (username.includes("@")) {
    const org = await deps.rpc.organizations.findByEmailDomain({ realm, email: username }).catch((err: unknown) => {
      currentContext()?.logger.warn({ err, realm }, "identity-first step could not ask for the email's organization");
      return null;
    });
    const alias = org?.identityProviders[0];
    if (alias) {
      // The typed email travels as the broker's login_hint, as Keycloak's organization
      // authenticator hands the username to the provider ("Pass login_hint").
      const q = new URLSearchParams({ tx: one(req.body, "tx"), csrf: one(req.body, "csrf"), login_hint: username }).toString();
      res.setHeader("Cache-Control", "no-store");
      res.setHeader("Referrer-Policy", "no-referrer");
      res.redirect(302, `/realms/${encodeURIComponent(realm)}/broker/${encodeURIComponent(alias)}/login?${q}`);
      return;
    }
  }
  const answer = (await deps.rpc.resetCredentialsFlow.returnToLogin({ context: flowContext(req, res, deps.publicUrl) })).result;
  // A copy: the in-process transport's answer is frozen.
  const result = answer && clone(FlowResultSchema, answer);
  if (result?.outcome.case === "page" && result.outcome.value.step === FlowStep.LOGIN) result.outcome.value.username = username;
  await sendFlowResult(res, deps, realm, result, action(realm));
}
