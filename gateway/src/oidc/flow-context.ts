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

/** Every single-valued string parameter of a query or form; repeated ones are kept as "" (invalid). */
export function paramsOf(source: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries((source ?? {}) as Record<string, unknown>)) {
    if (typeof v === "string") out[k] = v.slice(0, 4096);
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
