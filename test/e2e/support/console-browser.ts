import { mkdirSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";

/** Where the consoles' screenshots go (git-ignored test artifacts). */
export const CONSOLE_ARTIFACTS = join(process.cwd(), "test", "artifacts", "console");

export function launchChromium(): Promise<Browser> {
  mkdirSync(CONSOLE_ARTIFACTS, { recursive: true });
  // chromium.launch gives each run a fresh temporary profile of its own.
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH!,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
      "--disable-component-update", "--disable-sync"],
  });
}

/** A page whose CSP violations and script errors are collected (each test expects none). */
/** Signs in to the admin console as the server's bootstrap admin and waits for the realm list. */
export async function signInToAdminConsole(page: Page, server: { url: string; adminUsername: string; adminPassword: string }): Promise<void> {
  await page.goto(`${server.url}/admin/console`);
  await page.getByLabel("Username").fill(server.adminUsername);
  await page.getByLabel("Password").fill(server.adminPassword);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("heading", { name: "Realms" }).waitFor();
}

/**
 * Opens a realm's account console (at `section`, a fragment such as "signing-in"), signs in on the
 * hosted login page, and waits until the console shows the signed-in user.
 */
export async function signInToAccountConsole(page: Page, serverUrl: string, realm: string, user: { username: string; password: string }, section = ""): Promise<void> {
  await page.goto(`${serverUrl}/realms/${realm}/account/${section ? `#/${section}` : ""}`);
  await page.waitForSelector("#username");
  await page.fill("#username", user.username);
  await page.fill("#password", user.password);
  await page.click("button[type=submit]");
  await page.getByText("Signed in as").waitFor();
}

/**
 * A new browser context (1280 x 1000) on the admin console at `fragment` (e.g.
 * `realms/acme/users`), signed in as the server's bootstrap admin on the console's own sign-in
 * form; the caller closes the context.
 */
export async function openAdminConsole(browser: Browser, server: { url: string; adminUsername: string; adminPassword: string }, fragment: string): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
  const { page, problems } = await consolePage(context);
  await page.goto(`${server.url}/admin/console#/${fragment}`);
  await page.getByLabel("Username").fill(server.adminUsername);
  await page.getByLabel("Password").fill(server.adminPassword);
  await page.getByRole("button", { name: "Sign in" }).click();
  return { context, page, problems };
}

export async function consolePage(context: BrowserContext): Promise<{ page: Page; problems: string[] }> {
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("console", (m) => { if (/Content Security Policy|Refused to/i.test(m.text())) problems.push(m.text()); });
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  return { page, problems };
}

let axeSource: string | undefined;

/**
 * axe-core (WCAG 2 A and AA rules and best practices) run in the page; the serious and critical
 * violations, as `rule: target` lines. The script goes in through the DevTools protocol
 * (page.evaluate), so the console's CSP, which admits no inline script, is not loosened for it.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  axeSource ??= readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
  await page.evaluate(axeSource);
  const found = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: Document, opts: unknown): Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } }).axe;
    const r = await axe.run(document, { resultTypes: ["violations"] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.map((n) => n.target.join(" ")) }));
  });
  return found.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id} (${v.impact}): ${v.targets.join(", ")}`);
}

export async function screenshot(page: Page, name: string): Promise<void> {
  const file = join(CONSOLE_ARTIFACTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  expect(statSync(file).size).toBeGreaterThan(5000);
}

/** A page as the tests check each one: no serious or critical axe finding, and a screenshot. */
export async function checkPage(page: Page, name: string): Promise<void> {
  expect(await axeViolations(page)).toEqual([]);
  await screenshot(page, name);
}
