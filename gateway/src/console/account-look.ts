import { createHash } from "node:crypto";
import type { PageTheme } from "../pages/themes.js";
import type { RealmLook } from "../pages/realm-looks.js";

/**
 * The realm's look on its account console: the same preset and overrides as its hosted pages
 * (realm-looks.ts, themes.ts). The colours go in a stylesheet of their own
 * (`/realms/{realm}/account/theme.css`), since the console's CSP admits no inline style; the
 * title and logo go in two <meta> elements the console reads. Every value was checked by
 * resolveTheme (hex colours, https image URLs), and the markup escapes them again.
 */

/** The console's custom properties (console.css) set from the realm's theme. */
export function themeCss(t: PageTheme): string {
  const lines = [
    `/* The realm's theme "${t.name}" on the account console (the same look as its login pages). */`,
    ":root {",
    `  --brand: ${t.primaryColor}; --brand-dark: ${t.secondaryColor}; --on-brand: ${t.onPrimaryColor};`,
    `  --bg: ${t.backgroundColor}; --ink: ${t.textColor}; --card: ${t.surfaceColor}; --line: ${t.borderColor}; --muted: ${t.mutedColor};`,
    "}",
  ];
  // A dark page: the controls take the dark surface too, so typed text keeps its contrast.
  if (t.dark) lines.push("input, select, textarea, button, .chips li { background: var(--card); color: var(--ink); }", "tbody tr:hover { background: var(--line); }");
  return `${lines.join("\n")}\n`;
}

/** The theme stylesheet's address, versioned by its content so a changed theme is a new URL. */
function themeHref(realm: string, css: string): string {
  return `/realms/${encodeURIComponent(realm)}/account/theme.css?v=${createHash("sha256").update(css).digest("hex").slice(0, 12)}`;
}

const escapeAttr = (s: string): string => s.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** The realm's account document: the built page with its theme linked after the console's own styles; `csp` is the consoles' policy. */
export function accountDocument(html: string, realm: string, look: RealmLook, csp: string): { html: string; csp: string } {
  const t = look.theme;
  const tags = [
    `<link rel="stylesheet" href="${escapeAttr(themeHref(realm, themeCss(t)))}">`,
    `<meta name="tessera-realm-title" content="${escapeAttr(look.title)}">`,
    t.logoUrl ? `<meta name="tessera-realm-logo" content="${escapeAttr(t.logoUrl)}">` : "",
    t.faviconUrl ? `<link rel="icon" href="${escapeAttr(t.faviconUrl)}">` : "",
  ].filter(Boolean).join("\n    ");
  const page = html.replace(/<link rel="icon" href="data:," \/>\s*/, t.faviconUrl ? "" : "$&").replace("</head>", `  ${tags}\n  </head>`);
  // The logo and favicon are the realm's https URLs: their origins only are added to img-src.
  const origins = [...new Set([t.logoUrl, t.faviconUrl].filter(Boolean).map((u) => new URL(u).origin))];
  return { html: page, csp: origins.length ? csp.replace("img-src 'self' data:", `img-src 'self' data: ${origins.join(" ")}`) : csp };
}
