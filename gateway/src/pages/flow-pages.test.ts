import express, { type Request, type Response } from "express";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { pino } from "pino";
import { Code, ConnectError } from "@connectrpc/connect";
import { requestContext } from "../http/request-context.js";
import type { RpcClients } from "../rpc-clients.js";
import { sendFailure, sendFlowResult, type PageDeps } from "./flow-pages.js";
import type { RealmLooks } from "./realm-looks.js";
import { LoginOptions } from "./login-options.js";
import { resolveTheme } from "./themes.js";
import { create } from "@bufbuild/protobuf";
import { FlowPageSchema, FlowResultSchema, FlowStep } from "../../../gen/iam/token/v1/authorization_pb.js";
import { PASSWORD_TOGGLE_SCRIPT, PASSWORD_TOGGLE_SOURCE } from "./password-toggle.js";

/** A browser flow's server errors: a page that shows no cause, and a log line that names it. */
describe("hosted error pages of server errors", () => {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({ write(chunk: Buffer, _enc, done) { lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>); done(); } });
  const deps: PageDeps = {
    rpc: {} as RpcClients, publicUrl: "http://localhost",
    looks: { get: async () => ({ title: "Acme", theme: resolveTheme("tessera", {}) }) } as unknown as RealmLooks,
    login: new LoginOptions({} as RpcClients),
  };

  async function call(handler: (res: Response) => Promise<void>): Promise<{ status: number; text: string }> {
    const app = express();
    app.use(requestContext(pino({ level: "info" }, sink)));
    app.get("/", (_req: Request, res: Response) => { handler(res).catch(() => res.status(599).end()); });
    const server = createServer(app);
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      const { port } = server.address() as AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port}/`, { headers: { "x-request-id": "req-page-1" } });
      return { status: res.status, text: await res.text() };
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  }
  beforeEach(() => { lines.length = 0; });

  it("logs a failure rendered as a 500 page with the request id and the cause, and shows neither", async () => {
    const res = await call((r) => sendFailure(r, deps, "acme", new TypeError("option path is invalid")));
    expect(res.status).toBe(500);
    expect(res.text).toContain("<p class=\"alert\" role=\"alert\" id=\"error-description\">Something went wrong. Please try again later.</p>");
    expect(res.text).toContain("<code id=\"error-code\">internal_error</code>");
    expect(res.text).not.toContain("option path");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 50, request_id: "req-page-1", realm: "acme", status: 500, error: "internal_error",
      msg: "hosted page answered a server error", err: { type: "TypeError", message: "option path is invalid" },
    });
  });

  it("logs an RPC's 503 and a flow result the gateway cannot render", async () => {
    expect((await call((r) => sendFailure(r, deps, "acme", new ConnectError("directory down", Code.Unavailable)))).status).toBe(503);
    expect((await call((r) => sendFlowResult(r, deps, "acme", undefined, "/x"))).status).toBe(500);
    expect(lines.map((l) => [l.request_id, l.status, l.error])).toEqual([["req-page-1", 503, "unavailable"], ["req-page-1", 500, "server_error"]]);
  });

  it("does not log a client's error page", async () => {
    const res = await call((r) => sendFailure(r, deps, "acme", new ConnectError("realm not found", Code.NotFound)));
    expect(res.status).toBe(404);
    expect(lines).toEqual([]);
  });
});

/** The layout's slots: the show-password toggle only where a password is typed, the rules, the links. */
describe("hosted flow pages", () => {
  const deps: PageDeps = {
    rpc: {} as RpcClients, publicUrl: "http://localhost",
    looks: {
      get: async () => ({ title: "Acme", theme: resolveTheme("tessera", {}), registrationAllowed: true, resetPasswordAllowed: true, passwordRules: ["At least 10 characters", "A digit"] }),
    } as unknown as RealmLooks,
    login: new LoginOptions({} as RpcClients),
  };

  async function render(step: FlowStep, page: Record<string, unknown> = {}): Promise<{ csp: string; text: string }> {
    const app = express();
    app.get("/", (_req: Request, res: Response) => {
      const result = create(FlowResultSchema, { outcome: { case: "page", value: create(FlowPageSchema, { step, transactionId: "tx1", csrfToken: "c", clientName: "Portal", ...page }) } });
      void sendFlowResult(res, deps, "acme", result, "/act");
    });
    const server = createServer(app);
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
      return { csp: res.headers.get("content-security-policy") ?? "", text: await res.text() };
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  }

  it("gives the login page the toggle by its hash, the forgot-password and register links, and the social slot", async () => {
    const { csp, text } = await render(FlowStep.LOGIN);
    expect(csp).toContain(`script-src ${PASSWORD_TOGGLE_SOURCE};`);
    expect(text).toContain(`<script>${PASSWORD_TOGGLE_SCRIPT}</script>`);
    expect(text).toContain("<a id=\"forgot-password-link\" href=\"/realms/acme/login-actions/reset-credentials?tx=tx1\">Forgot password?</a>");
    expect(text).toContain("<a id=\"register-link\" href=\"/realms/acme/login-actions/registration?tx=tx1\">Register</a>");
    expect(text).toContain("<div class=\"social\" id=\"social-providers\"></div>");
    expect(text).toContain("<p class=\"subtitle\">to continue to Portal</p>");
  });

  it("lists the password rules on the registration, update and reset pages, with a way back where there is one", async () => {
    for (const step of [FlowStep.REGISTER, FlowStep.UPDATE_PASSWORD, FlowStep.RESET_PASSWORD]) {
      const { csp, text } = await render(step, { resetKey: "k" });
      expect(text).toContain("<ul class=\"rules\" id=\"password-rules\"><li>At least 10 characters</li><li>A digit</li></ul>");
      expect(csp).toContain(PASSWORD_TOGGLE_SOURCE);
    }
    expect((await render(FlowStep.REGISTER)).text).toContain("<a id=\"back-to-login\" href=\"/realms/acme/login-actions/authenticate?tx=tx1\">« Back to sign in</a>");
    expect((await render(FlowStep.RESET_CREDENTIALS)).text).toContain("<a id=\"back-to-login\" href=\"/realms/acme/login-actions/authenticate?tx=tx1\">");
  });

  it("runs no script on pages without a password field", async () => {
    for (const step of [FlowStep.OTP, FlowStep.CONSENT, FlowStep.RESET_CREDENTIALS, FlowStep.RESET_EMAIL_SENT, FlowStep.DEVICE_ENTER_CODE]) {
      const { csp, text } = await render(step);
      expect(csp).not.toContain("script-src");
      expect(text).not.toContain("<script");
    }
  });
});
