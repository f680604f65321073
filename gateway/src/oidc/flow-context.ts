import express, { type Request, type RequestHandler, type Response } from "express";
import cookieParser from "cookie-parser";
import { create } from "@bufbuild/protobuf";
import { FlowContextSchema, type FlowContext } from "../../../gen/iam/token/v1/authorization_pb.js";
import { ensureBrowserId, readCookie, SSO_COOKIE } from "./browser-cookies.js";

/** Form bodies (application/x-www-form-urlencoded) and cookies for the browser routes. */
export const browserParsers: RequestHandler[] = [express.urlencoded({ extended: false, limit: "64kb", parameterLimit: 100 }), cookieParser()];

export function realmOf(req: Request): string {
  return String(req.params.realmName);
}

/** A single string parameter; repeated parameters are refused by taking none (RFC 6749 section 3.1). */
export function one(source: unknown, name: string): string {
  const v = (source as Record<string, unknown> | undefined)?.[name];
  return typeof v === "string" ? v : "";
}

/**
 * The longest value a parameter of the authorization and logout endpoints may have. An
 * id_token_hint carries every mapped claim (groups, roles) and grows past 4 KB; other parameters
 * (state, nonce, redirect_uri, scope) never need to. A request object (RFC 9101) carries the others
 * and a signature (an RS256 one alone is 342 characters).
 */
const PARAM_LIMITS: Readonly<Record<string, number>> = { id_token_hint: 16_384, request: 16_384 };
const PARAM_LIMIT = 4096;

/**
 * Every string parameter of a query or form. A repeated parameter (RFC 6749 section 3.1) or one
 * over its limit is marked with a value starting with NUL, which the token service refuses as
 * invalid_request and never echoes (a state cut short or a marker sent back as `state` would be
 * a silently wrong answer to the client).
 */
export function paramsOf(source: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries((source ?? {}) as Record<string, unknown>)) {
    if (typeof v === "string") out[k] = v.length > (PARAM_LIMITS[k] ?? PARAM_LIMIT) ? "\u0000too-long" : v;
    else if (Array.isArray(v)) out[k] = "\u0000repeated";
  }
  return out;
}

/** The browser's context for an AuthorizationFlowService call. */
export function flowContext(req: Request, res: Response, publicUrl: string): FlowContext {
  const realm = realmOf(req);
  return create(FlowContextSchema, {
    realm,
    transactionId: one(req.body, "tx"),
    csrfToken: one(req.body, "csrf"),
    browserId: ensureBrowserId(req, res, realm, publicUrl),
    ssoCookie: readCookie(req, SSO_COOKIE),
    ipAddress: req.ip ?? "",
    baseUrl: publicUrl,
  });
}
