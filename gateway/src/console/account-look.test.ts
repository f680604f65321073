import { resolveTheme } from "../pages/themes.js";
import { accountDocument, themeCss } from "./account-look.js";

const BUILT = `<!doctype html>
<html lang="en">
  <head>
    <title>Account console</title>
    <link rel="icon" href="data:," />
    <link rel="stylesheet" crossorigin href="/resources/console/assets/format-abc.css">
  </head>
  <body><div id="app"></div></body>
</html>`;
const CSP = "default-src 'none'; img-src 'self' data:; style-src 'self'";

describe("the account console's realm look", () => {
  it("escapes the display name, links the theme after the console's styles, and adds only the image origins to img-src", () => {
    const theme = resolveTheme("ocean", { logoUrl: "https://cdn.example.com/a/logo.svg", faviconUrl: "https://icons.example.net/f.ico" });
    const { html, csp } = accountDocument(BUILT, "acme corp", { title: `"><script>alert(1)</script>`, theme }, CSP);
    expect(csp).toBe("default-src 'none'; img-src 'self' data: https://cdn.example.com https://icons.example.net; style-src 'self'");
    expect(html).toContain('<meta name="tessera-realm-title" content="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;">');
    expect(html).not.toContain("<script>");
    expect(html).toContain('<meta name="tessera-realm-logo" content="https://cdn.example.com/a/logo.svg">');
    expect(html).toContain('<link rel="icon" href="https://icons.example.net/f.ico">');
    expect(html).not.toContain('href="data:,"');
    const link = /<link rel="stylesheet" href="(\/realms\/acme%20corp\/account\/theme\.css\?v=[0-9a-f]{12})">/.exec(html);
    expect(link).not.toBeNull();
    expect(html.indexOf(link![1]!)).toBeGreaterThan(html.indexOf("format-abc.css"));
  });

  it("keeps the consoles' policy and data: icon without a logo, and versions the stylesheet by its content", () => {
    const plain = accountDocument(BUILT, "r", { title: "R", theme: resolveTheme("tessera", {}) }, CSP);
    expect(plain.csp).toBe(CSP);
    expect(plain.html).toContain('href="data:,"');
    expect(plain.html).not.toContain("tessera-realm-logo");
    const other = accountDocument(BUILT, "r", { title: "R", theme: resolveTheme("tessera", { primaryColor: "#123456" }) }, CSP);
    const v = (h: string) => /theme\.css\?v=([0-9a-f]+)/.exec(h)![1];
    expect(v(other.html)).not.toBe(v(plain.html));
  });

  it("gives a dark theme dark controls, and a light one none", () => {
    expect(themeCss(resolveTheme("midnight", {}))).toContain("--bg: #0f172a; --ink: #e2e8f0;");
    expect(themeCss(resolveTheme("midnight", {}))).toContain("input, select, textarea, button, .chips li { background: var(--card); color: var(--ink); }");
    expect(themeCss(resolveTheme("ocean", {}))).not.toContain("input, select");
  });
});
