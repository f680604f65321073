import { toJson } from "@bufbuild/protobuf";
import type { Request } from "express";
import { RealmInputSchema, RealmSchema, RealmUpdateSchema, type Realm, type RealmInput, type RealmUpdate } from "../../../gen/iam/directory/v1/realm_pb.js";
import { currentContext } from "../../../services/kit/src/context.js";
import type { RouteTable } from "../http/route-table.js";
import { parseBody } from "../http/json-input.js";
import type { RpcClients } from "../rpc-clients.js";
import type { RealmLooks } from "../pages/realm-looks.js";
import type { ClientOrigins } from "../oidc/cors.js";
import { GatewayError } from "../http/rpc-errors.js";
import { intParam, strParam } from "./event-routes.js";
import { FULL_ACCESS, visibleRealm } from "./admin-permissions.js";

/** Realm Admin API (spec 2.1, 4.1). A change drops the realm's cached page look (and client origins) at once. */
export function addRealmRoutes(table: RouteTable, rpc: RpcClients, looks: RealmLooks, origins: ClientOrigins): void {
  table
    .add("POST", "/admin/realms", "admin", async (req) => {
      const realm = parseBody(RealmInputSchema, req.body, POLICY_LIST_FLAGS);
      markPolicyLists(realm, req.body);
      const res = await rpc.realms.createRealm({ realm });
      return { status: 201, body: realmJson(res.realm) };
    })
    .add("GET", "/admin/realms", "admin", async (req) => {
      const page = realmPage(req);
      const access = req.adminAccess ?? FULL_ACCESS;
      if (access.serverAdmin) {
        const res = await rpc.realms.listRealms(page ? { paged: true, ...page } : {});
        return { status: 200, body: res.realms.map(realmJson) };
      }
      // A realm admin sees the realms it holds roles in (Keycloak's realm list does the same), paged here.
      const mine = (await rpc.realms.listRealms({})).realms.filter((r) => visibleRealm(access, r.name));
      const search = page?.search.toLowerCase() ?? "";
      const found = search ? mine.filter((r) => r.name.includes(search) || r.displayName.toLowerCase().includes(search)) : mine;
      return { status: 200, body: (page ? found.slice(page.first, page.first + page.max) : found).map(realmJson) };
    })
    .add("GET", "/admin/realms/themes", "admin", async () => {
      const res = await rpc.realms.listThemes({});
      return { status: 200, body: res.themes };
    })
    .add("GET", "/admin/realms/:realmName", "admin", async (req) => {
      const res = await rpc.realms.getRealm({ name: String(req.params.realmName) });
      return { status: 200, body: realmJson(res.realm) };
    })
    .add("PUT", "/admin/realms/:realmName", "admin", async (req) => {
      const update = parseBody(RealmUpdateSchema, req.body, ["themePresent", "supportedLocalesPresent", ...POLICY_LIST_FLAGS]);
      update.themePresent = Object.prototype.hasOwnProperty.call(req.body, "theme");
      update.supportedLocalesPresent = Object.prototype.hasOwnProperty.call(req.body, "supportedLocales");
      markPolicyLists(update, req.body);
      const res = await rpc.realms.updateRealm({ name: String(req.params.realmName), update });
      looks.forget(String(req.params.realmName));
      return { status: 200, body: realmJson(res.realm) };
    })
    .add("DELETE", "/admin/realms/:realmName", "admin", async (req) => {
      const res = await rpc.realms.deleteRealm({ name: String(req.params.realmName) });
      looks.forget(String(req.params.realmName));
      origins.forget(String(req.params.realmName));
      // No admin event survives a realm's deletion (its events go with it), so the log keeps who did it.
      currentContext()?.logger.info({ realm: res.realm?.name, actor: req.actor }, "realm deleted");
      return { status: 200, body: realmJson(res.realm) };
    });
}

/** The WebAuthn policy's lists: an empty list sent is told from one left out (proto lists have no presence). */
const POLICY_LISTS = [
  "webAuthnPolicyPasswordlessSignatureAlgorithms", "webAuthnPolicyPasswordlessAcceptableAaguids", "webAuthnPolicyPasswordlessExtraOrigins",
] as const;
const POLICY_LIST_FLAGS = POLICY_LISTS.map((f) => `${f}Present`);

function markPolicyLists(message: RealmInput | RealmUpdate, body: Record<string, unknown>): void {
  for (const f of POLICY_LISTS) message[`${f}Present`] = Object.prototype.hasOwnProperty.call(body, f);
}

export function realmJson(realm: Realm | undefined): Record<string, unknown> {
  if (!realm) return {};
  const json = toJson(RealmSchema, realm, { alwaysEmitImplicit: true }) as Record<string, unknown>;
  // Absent rather than empty when no SMTP password is set; "**********" when one is.
  if (json.smtpPassword === "") delete json.smtpPassword;
  return json;
}

interface RealmPage {
  search: string;
  first: number;
  max: number;
}

/** Largest `max` of one realm page (the admin console asks for 21). */
const MAX_REALM_PAGE = 1000;

/**
 * `search` (a case-insensitive part of the name or display name), `first` and `max` of the realm
 * list, as Keycloak's realm picker pages it; null without any of them, so the list stays whole
 * for callers that never page (spec 4.1).
 */
function realmPage(req: Request): RealmPage | null {
  if (req.query.search === undefined && req.query.first === undefined && req.query.max === undefined) return null;
  const max = req.query.max === undefined ? 100 : intParam(req, "max");
  if (max < 1 || max > MAX_REALM_PAGE) {
    throw new GatewayError(400, "invalid_request", `max must be between 1 and ${MAX_REALM_PAGE}`, "max");
  }
  return { search: strParam(req, "search").trim(), first: intParam(req, "first"), max };
}

