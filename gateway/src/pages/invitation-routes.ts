import type { Request, Response } from "express";
import type { RouteTable } from "../http/route-table.js";
import { describeError } from "../http/rpc-errors.js";
import { browserParsers, one, realmOf } from "../oidc/flow-context.js";
import { sendFailure, type PageDeps } from "./flow-pages.js";
import { pageRealmGuard } from "./page-realm-guard.js";
import { renderPage } from "./page-renderer.js";
import { PASSWORD_TOGGLE_SCRIPT, PASSWORD_TOGGLE_SOURCE } from "./password-toggle.js";

export const INVITATION_PAGE = "/realms/:realmName/login-actions/organization-invitation";

/**
 * The page an organization invitation's link opens (organization-invitations.ts in the directory):
 * GET shows the organization and, when no account holds the invited email, a registration form;
 * POST accepts. The form carries the link's key, an unguessable sealed secret a cross-site page
 * cannot know, so it is also what stands against a forged POST (the CSRF token of this page).
 */
export function addInvitationRoutes(table: RouteTable, deps: PageDeps): void {
  const parsers = [...browserParsers, pageRealmGuard(deps)];
  table
    .add("GET", INVITATION_PAGE, "public", async (req, res) => {
      const key = one(req.query, "key").slice(0, 4096);
      try {
        const r = await deps.rpc.organizations.acceptInvitation({ realm: realmOf(req), token: key, inspect: true });
        await form(req, res, deps, key, r, {});
      } catch (e) {
        await sendFailure(res, deps, realmOf(req), e);
      }
    }, ...parsers)
    .add("POST", INVITATION_PAGE, "public", async (req, res) => {
      const b = req.body as unknown;
      const key = one(b, "key").slice(0, 4096);
      const fields = { username: one(b, "username"), password: one(b, "password"), firstName: one(b, "firstName"), lastName: one(b, "lastName") };
      try {
        const r = await deps.rpc.organizations.acceptInvitation({ realm: realmOf(req), token: key, ...fields });
        const look = await deps.looks.get(realmOf(req));
        await renderPage(res, 200, "organization-joined.njk", { ...look, pageTitle: "Invitation accepted", organizationName: r.organizationName, redirectUrl: r.redirectUrl });
      } catch (e) {
        const err = describeError(e);
        // A refused username or password: the form again, with the reason; the link stays usable.
        if ((err.status === 400 || err.status === 409) && err.reason !== "invitation_invalid" && err.reason !== "invitation_used") {
          try {
            const r = await deps.rpc.organizations.acceptInvitation({ realm: realmOf(req), token: key, inspect: true });
            return void (await form(req, res, deps, key, r, { ...fields, message: err.message }, 400));
          } catch (again) {
            return void (await sendFailure(res, deps, realmOf(req), again));
          }
        }
        await sendFailure(res, deps, realmOf(req), e);
      }
    }, ...parsers);
}

async function form(req: Request, res: Response, deps: PageDeps, key: string,
  r: { organizationName: string; email: string; needsAccount: boolean; firstName: string; lastName: string }, typed: Record<string, string>, status = 200): Promise<void> {
  const look = await deps.looks.get(realmOf(req));
  await renderPage(res, status, "organization-invitation.njk", {
    ...look, pageTitle: "Join an organization", action: `/realms/${realmOf(req)}/login-actions/organization-invitation`, key,
    organizationName: r.organizationName, email: r.email, needsAccount: r.needsAccount,
    username: typed.username ?? "", firstName: typed.firstName ?? r.firstName, lastName: typed.lastName ?? r.lastName, message: typed.message ?? "",
    passwordToggle: PASSWORD_TOGGLE_SCRIPT,
  }, "", { scriptHashes: [PASSWORD_TOGGLE_SOURCE] });
}
