import express, { type Request, type RequestHandler } from "express";
import type { RouteTable } from "../http/route-table.js";
import type { RpcClients } from "../rpc-clients.js";
import type { RealmLooks } from "../pages/realm-looks.js";
import { GatewayError } from "../http/rpc-errors.js";

const L = "/admin/realms/:realmName/localization";
export const LOCALIZATION_KEY_PATH = `${L}/:locale/:key`;

/**
 * One text is sent as the body itself (Keycloak's PUT /localization/{locale}/{key} consumes
 * text/plain); any other type is a 415 naming what to send (RFC 9110 section 15.5.16).
 */
export function localizationBodyParser(path: string): RequestHandler | undefined {
  if (path !== LOCALIZATION_KEY_PATH) return undefined;
  const text = express.text({ type: "text/plain", limit: "64kb", defaultCharset: "utf-8" });
  return (req, res, next) => {
    const length = req.headers["content-length"];
    const hasBody = req.headers["transfer-encoding"] !== undefined || (length !== undefined && length !== "0");
    if (hasBody && !req.is("text/plain")) {
      return next(new GatewayError(415, "unsupported_media_type", "the request body must be text/plain: the text itself"));
    }
    return text(req, res, next);
  };
}

/** The body of PUT/POST /localization/{locale}: a JSON object of key -> text. */
function textMap(req: Request): Record<string, string> {
  const body: unknown = req.body;
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new GatewayError(400, "invalid_request", "the body must be a JSON object of message key -> text", "texts");
  }
  for (const [key, text] of Object.entries(body)) {
    if (typeof text !== "string") throw new GatewayError(400, "invalid_request", `the text of "${key.slice(0, 60)}" must be a string`, "texts");
  }
  return body as Record<string, string>;
}

/**
 * Realm localization texts, at Keycloak's paths and statuses (RealmLocalizationResource): the
 * locales with overrides, one locale's key -> text map, one text. A change drops the realm's
 * cached page look at once (the overrides render with it).
 */
export function addLocalizationRoutes(table: RouteTable, rpc: RpcClients, looks: RealmLooks): void {
  const realmOf = (req: Request) => String(req.params.realmName);
  const all = async (req: Request) => (await rpc.localization.getLocalizationTexts({ realm: realmOf(req) })).locales;
  const put = async (req: Request, texts: Record<string, string>, merge: boolean) => {
    await rpc.localization.putLocalizationTexts({ realm: realmOf(req), locale: String(req.params.locale), texts, merge });
    looks.forget(realmOf(req));
  };
  const remove = async (req: Request, key: string) => {
    await rpc.localization.deleteLocalizationTexts({ realm: realmOf(req), locale: String(req.params.locale), key });
    looks.forget(realmOf(req));
  };
  table
    .add("GET", L, "admin", async (req) => ({ status: 200, body: Object.keys(await all(req)).sort() }))
    .add("GET", `${L}/:locale`, "admin", async (req) => ({ status: 200, body: (await all(req))[String(req.params.locale)]?.texts ?? {} }))
    .add("PUT", `${L}/:locale`, "admin", async (req) => {
      await put(req, textMap(req), false);
      return { status: 204 };
    })
    .add("POST", `${L}/:locale`, "admin", async (req) => {
      await put(req, textMap(req), true);
      return { status: 204 };
    })
    .add("DELETE", `${L}/:locale`, "admin", async (req) => {
      await remove(req, "");
      return { status: 204 };
    })
    .add("GET", LOCALIZATION_KEY_PATH, "admin", async (req, res) => {
      const text = (await all(req))[String(req.params.locale)]?.texts[String(req.params.key)];
      if (text === undefined) throw new GatewayError(404, "localization_not_found", "localization text not found");
      res.status(200).type("text/plain; charset=utf-8").send(text);
    })
    .add("PUT", LOCALIZATION_KEY_PATH, "admin", async (req) => {
      if (typeof req.body !== "string") throw new GatewayError(400, "invalid_request", "the body must be the text (text/plain)", "text");
      await put(req, { [String(req.params.key)]: req.body }, true);
      return { status: 204 };
    })
    .add("DELETE", LOCALIZATION_KEY_PATH, "admin", async (req) => {
      await remove(req, String(req.params.key));
      return { status: 204 };
    });
}
