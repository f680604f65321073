import { generateKeyPairSync } from "node:crypto";
import { selfSignedCertificate } from "../../../services/saml/src/domain/self-signed-cert.js";
import { parseForms, type PageResponse } from "./browser-session.js";

// Test support for the SAML e2e (no tests here): SP credentials and readers of the IdP's pages.

/** An SP's signing key pair with a self-signed certificate (node:crypto). */
export function spCredentials(cn: string): { privateKey: string; certificate: string } {
  const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const now = Date.now();
  const certificate = selfSignedCertificate({ commonName: cn, publicKey, privateKey, notBefore: now - 3600_000, notAfter: now + 365 * 86_400_000 });
  return { privateKey: privateKey.export({ type: "pkcs8", format: "pem" }) as string, certificate };
}

/** The value of a hidden field in node-saml's POST-binding form. */
export function htmlField(html: string, name: string): string {
  const m = new RegExp(`name="${name}" value="([^"]*)"`).exec(html);
  if (!m) throw new Error(`no ${name} in form`);
  return m[1]!.replace(/&#x([0-9a-fA-F]+);/g, (_, h: string) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#([0-9]+);/g, (_, d: string) => String.fromCodePoint(Number(d)))
    .replace(/&quot;/g, "\"").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
}

/** The auto-POST page: its only form posts SAMLResponse (+ RelayState) to `acs`. */
export function autoPost(page: PageResponse, acs: string): { SAMLResponse: string; RelayState?: string } {
  expect(page.status).toBe(200);
  const forms = parseForms(page.text);
  expect(forms).toHaveLength(1);
  expect(forms[0]!.action).toBe(acs);
  expect(forms[0]!.method).toBe("post");
  const csp = page.headers.get("content-security-policy") ?? "";
  const nonce = /script-src 'nonce-([A-Za-z0-9_-]+)'/.exec(csp)?.[1];
  expect(nonce).toBeDefined();
  expect(page.text).toContain(`<script nonce="${nonce}">`);
  expect(csp).toContain(`form-action 'self' ${new URL(acs).origin};`);
  expect(csp).toContain("frame-ancestors 'none'");
  expect(page.text).toContain("<button type=\"submit\">Continue</button>");
  const { SAMLResponse, RelayState } = forms[0]!.fields;
  return { SAMLResponse: SAMLResponse!, ...(RelayState !== undefined ? { RelayState } : {}) };
}

/** The front-channel logout page: one hidden iframe per LogoutRequest; CSP frames only those origins. */
export function logoutFrames(page: PageResponse): URL[] {
  expect(page.status).toBe(200);
  const csp = page.headers.get("content-security-policy") ?? "";
  const frames = [...page.text.matchAll(/<iframe class="saml-slo" src="([^"]*)"/g)].map((m) => new URL(m[1]!.replace(/&amp;/g, "&")));
  const frameSrc = (/frame-src ([^;]*);/.exec(csp)?.[1] ?? "").split(" ");
  expect(frameSrc.sort()).toEqual([...new Set(frames.map((f) => f.origin))].sort());
  expect(csp).toMatch(/script-src 'nonce-[A-Za-z0-9_-]+'/);
  return frames;
}
