import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { randomBytes } from "node:crypto";
import type { Request, Response } from "express";
import type { RouteTable } from "../http/route-table.js";

/**
 * The passkey pages' scripts, served as files (the hosted pages' CSP admits no inline script but
 * a nonce-bearing one): @simplewebauthn/browser's UMD bundle (the WebAuthn JSON <-> ArrayBuffer
 * conversions and error mapping of navigator.credentials.create/get), and the page's own script,
 * which reads the ceremony's options from the form's data-options and posts the result.
 */
export const PASSKEY_LIBRARY_PATH = "/resources/passkeys/simplewebauthn-browser.js";
export const PASSKEY_PAGE_SCRIPT_PATH = "/resources/passkeys/passkey-page.js";

export const PASSKEY_PAGE_SCRIPT = `(function () {
  "use strict";
  var form = document.getElementById("passkey-form");
  if (!form) return;
  var button = document.getElementById("passkey-button");
  var status = document.getElementById("passkey-status");
  var lib = window.SimpleWebAuthnBrowser;
  if (!lib || !lib.browserSupportsWebAuthn()) {
    status.textContent = "This browser does not support passkeys.";
    return;
  }
  var options = JSON.parse(form.getAttribute("data-options"));
  var register = form.getAttribute("data-ceremony") === "register";
  button.disabled = false;
  button.addEventListener("click", function () {
    button.disabled = true;
    status.textContent = "";
    var run = register ? lib.startRegistration({ optionsJSON: options }) : lib.startAuthentication({ optionsJSON: options });
    run.then(function (credential) {
      form.elements.credential.value = JSON.stringify(credential);
      form.submit();
    }, function (err) {
      button.disabled = false;
      status.textContent = err && err.name === "NotAllowedError"
        ? "The passkey request was cancelled or timed out. Please try again."
        : "This passkey could not be used. Please try again.";
    });
  });
})();
`;

let library: string | null = null;

/** The bundle shipped by the package (dist/bundle beside its CommonJS entry's directory). */
function libraryBundle(): string {
  if (library === null) {
    const entry = createRequire(import.meta.url).resolve("@simplewebauthn/browser");
    library = readFileSync(join(dirname(entry), "..", "dist", "bundle", "index.umd.min.js"), "utf8");
  }
  return library;
}

/** A fresh nonce for one page's two script elements (CSP3 section 2.3.1 nonce-source). */
export function scriptNonce(): string {
  return randomBytes(18).toString("base64url");
}

export function addPasskeyAssetRoutes(table: RouteTable): void {
  const send = (res: Response, body: string): undefined => {
    res.setHeader("Cache-Control", "public, max-age=3600");
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.status(200).type("text/javascript; charset=utf-8").send(body);
    return undefined;
  };
  table
    .add("GET", PASSKEY_LIBRARY_PATH, "public", async (_req: Request, res: Response) => send(res, libraryBundle()))
    .add("GET", PASSKEY_PAGE_SCRIPT_PATH, "public", async (_req: Request, res: Response) => send(res, PASSKEY_PAGE_SCRIPT));
}
