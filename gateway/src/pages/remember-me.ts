import type { Request } from "express";
import type { FlowPage } from "../../../gen/iam/token/v1/authorization_pb.js";
import { readCookie, REMEMBER_ME_COOKIE } from "../oidc/browser-cookies.js";
import { one } from "../oidc/flow-context.js";

/** The login page's "Remember me" box as rendered, and the username its field shows. */
export interface RememberMeField {
  checked: boolean;
  username: string;
}

/** Whether a login form post ticked "Remember me": Keycloak's test, the field equal to "on" in any case. */
export function rememberMeTicked(body: unknown): boolean {
  return one(body, "rememberMe").toLowerCase() === "on";
}

/**
 * The box of a realm offering "Remember me", as Keycloak's username-password form fills it: a
 * login form posted back (a wrong password, the identity-first step) keeps what was ticked and
 * typed; a fresh page of a browser that remembers a username shows that username, ticked, unless
 * the request named the user itself (login_hint wins, as in Keycloak).
 */
export function rememberMeField(req: Request | undefined, page: Pick<FlowPage, "username">): RememberMeField {
  const body: unknown = req?.method === "POST" ? req.body : undefined;
  if (one(body, "step") === "login") return { checked: rememberMeTicked(body), username: page.username };
  const remembered = req ? readCookie(req, REMEMBER_ME_COOKIE).slice(0, 255) : "";
  if (!page.username && remembered) return { checked: true, username: remembered };
  return { checked: false, username: page.username };
}
