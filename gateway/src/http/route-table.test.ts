import { createServer, request, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import express, { type NextFunction, type Request, type Response } from "express";
import { RouteTable, type RouteAuth } from "./route-table.js";
import { describeError } from "./rpc-errors.js";

/**
 * The route table's authentication declarations (DESIGN 7): the admin guard runs from them, before
 * the body parser, and a route without one does not mount. test/e2e/route-walk.e2e.test.ts walks
 * the gateway's real table.
 */
describe("RouteTable", () => {
  let server: Server;
  let port: number;
  const parsed: string[] = [];

  beforeAll(async () => {
    const table = new RouteTable()
      .add("GET", "/admin/things", "admin", async (req) => ({ status: 200, body: { actor: req.actor } }))
      .add("POST", "/admin/things", "admin", async (req) => ({ status: 201, body: req.body }))
      .add("GET", "/open", "public", async () => ({ status: 200, body: { ok: true } }));
    const app = express();
    app.set("case sensitive routing", true);
    app.set("strict routing", true);
    const json = express.json({ limit: "1kb" });
    table.mount(app, {
      adminGuard: (req, res, next) => {
        if (req.get("x-key") === "k") {
          req.actor = { type: "api-key", ipAddress: "127.0.0.1" };
          return next();
        }
        res.status(401).json({ error: "unauthorized" });
      },
      adminAccess: () => (_req, _res, next) => next(),
      jsonParser: () => (req: Request, res: Response, next: NextFunction) => {
        parsed.push(`${req.method} ${req.path}`);
        json(req, res, next);
      },
    });
    app.use((_req: Request, res: Response) => void res.status(404).json({ error: "not_found" }));
    app.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
      const e = describeError(err);
      res.status(e.status).json({ error: e.reason });
    });
    server = createServer(app);
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  // node:http sends the path as written; fetch would normalise `/./` and the like away.
  const call = (method: string, path: string, headers: Record<string, string> = {}, body?: string) =>
    new Promise<{ status: number; body: unknown; headers: IncomingHttpHeaders }>((resolve, reject) => {
      const req = request({ host: "127.0.0.1", port, path, method, headers: { "content-type": "application/json", ...headers } }, (res) => {
        let text = "";
        res.on("data", (c: Buffer) => (text += c.toString()));
        res.on("end", () => resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : undefined, headers: res.headers }));
      });
      req.on("error", reject);
      req.end(body);
    });

  it("lists every route with its declaration", () => {
    const t = new RouteTable()
      .add("GET", "/a", "public", async () => undefined)
      .add("POST", "/a", "client", async () => undefined)
      .add("GET", "/b", "bearer", async () => undefined);
    expect(t.routes()).toEqual([
      { method: "GET", path: "/a", auth: "public" },
      { method: "POST", path: "/a", auth: "client" },
      { method: "GET", path: "/b", auth: "bearer" },
    ]);
  });

  it("refuses to mount a route without an authentication declaration", () => {
    const t = new RouteTable()
      .add("GET", "/fine", "public", async () => undefined)
      .add("GET", "/forgot", undefined as unknown as RouteAuth, async () => undefined)
      .add("PUT", "/typo", "pubic" as RouteAuth, async () => undefined);
    expect(() => t.mount(express(), { adminGuard: (_q, _s, n) => n(), jsonParser: () => (_q, _s, n) => n(), adminAccess: () => (_q, _s, n) => n() }))
      .toThrow("routes without an authentication declaration (public, admin, client or bearer): GET /forgot, PUT /typo");
  });

  it("runs the admin guard from the declaration, before the body is parsed", async () => {
    parsed.length = 0;
    const denied = await call("POST", "/admin/things", {}, JSON.stringify({ big: "x".repeat(500) }));
    expect(denied.status).toBe(401);
    expect(parsed).toEqual([]);
    const ok = await call("POST", "/admin/things", { "x-key": "k" }, JSON.stringify({ a: 1 }));
    expect(ok.status).toBe(201);
    expect(ok.body).toEqual({ a: 1 });
    expect(ok.headers["cache-control"]).toBe("no-store");
    expect(parsed).toEqual(["POST /admin/things"]);
    const got = await call("GET", "/admin/things", { "x-key": "k" });
    expect(got.body).toEqual({ actor: { type: "api-key", ipAddress: "127.0.0.1" } });
    expect((await call("GET", "/open")).status).toBe(200);
  });

  it("answers an admin-only path's 405 only to an authenticated caller", async () => {
    expect((await call("DELETE", "/admin/things")).status).toBe(401);
    const allowed = await call("DELETE", "/admin/things", { "x-key": "k" });
    expect(allowed.status).toBe(405);
    expect(allowed.headers.allow).toBe("GET, POST, HEAD");
    expect((await call("DELETE", "/open")).status).toBe(405);
  });

  it("routes exactly: another case, a trailing or doubled slash is no route", async () => {
    for (const path of ["/ADMIN/things", "/admin/Things", "/admin/things/", "/admin//things", "//admin/things", "/admin/./things", "/admin%2Fthings", "/admin;x=1/things"]) {
      expect([path, (await call("GET", path)).status]).toEqual([path, 404]);
    }
  });
});
