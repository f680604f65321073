import type { NextFunction, Request, RequestHandler, Response } from "express";
import { isPossibleRealmName } from "../../../services/kit/src/validation/realm-name.js";
import { BROWSER_COOKIE, readCookie } from "../oidc/browser-cookies.js";
import { realmOf } from "../oidc/flow-context.js";
import { sendUnknownRealmPage, type PageDeps } from "./flow-pages.js";

/**
 * Answers a hosted-page request for a realm that does not exist or is disabled with the unknown
 * realm's 404 page, before any handler runs, so that such a realm never gets a browser cookie
 * (browser-cookies.ts ensureBrowserId sets one on first sight).
 *
 * A name no realm can have (`a;b`, `<`, a newline, `é`, upper case) is answered without asking:
 * it would otherwise reach the cookie Path `/realms/<realm>/`, which express refuses to set
 * (RFC 6265 section 4.1.1), and each page would answer 500.
 *
 * A possible name is looked up only when the browser has no browser cookie yet, i.e. when a page
 * would set one; the lookup is the realm look cache's (realm-looks.ts), which the page reads
 * anyway to render, so an existing realm costs no extra directory call. A browser that already
 * holds the cookie goes on: the token service's flows answer the same 404 page for the realm. When
 * the directory does not answer, the page goes on too, and answers as it would have.
 *
 * `notAPage` lets a route that also serves an API call (the refresh-token logout, spec 4.16) keep
 * its own answer.
 */
export function pageRealmGuard(deps: PageDeps, notAPage?: (req: Request) => boolean): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const realm = realmOf(req);
    if (notAPage?.(req)) return next();
    if (!isPossibleRealmName(realm)) return void sendUnknownRealmPage(res, deps, realm).catch(next);
    if (readCookie(req, BROWSER_COOKIE)) return next();
    deps.looks.isServed(realm).then(
      (served) => (served ? next() : sendUnknownRealmPage(res, deps, realm)),
      () => next(),
    ).catch(next);
  };
}
