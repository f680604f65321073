import type { NextFunction, Request, RequestHandler, Response } from "express";
import { isPossibleRealmName } from "../../../services/kit/src/validation/realm-name.js";
import { realmOf } from "../oidc/flow-context.js";
import { sendErrorPage, type PageDeps } from "./flow-pages.js";

/** What the token service's flows answer for a realm that does not exist (their realm_not_found page). */
export function sendUnknownRealmPage(res: Response, deps: PageDeps, realm: string): Promise<void> {
  return sendErrorPage(res, deps, realm, 404, "realm_not_found", "This realm does not exist or is disabled.");
}

/**
 * Answers a hosted-page request whose path names a realm that cannot exist (not a realm name:
 * `a;b`, `<`, a newline, `é`, upper case) with the unknown realm's 404 page, before any handler
 * runs. Such a name would otherwise reach the cookie Path `/realms/<realm>/` (browser-cookies.ts),
 * which express refuses to set (RFC 6265 section 4.1.1), and each page would answer 500.
 * `notAPage` lets a route that also serves an API call (the refresh-token logout, spec 4.16) keep
 * its own answer.
 */
export function pageRealmGuard(deps: PageDeps, notAPage?: (req: Request) => boolean): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const realm = realmOf(req);
    if (isPossibleRealmName(realm) || notAPage?.(req)) return next();
    sendUnknownRealmPage(res, deps, realm).catch(next);
  };
}
