import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { Code, ConnectError } from "@connectrpc/connect";
import pino from "pino";
import { Registry } from "prom-client";
import { HttpMetrics } from "../http/http-metrics.js";
import type { RpcClients } from "../rpc-clients.js";
import { oauthFormLane } from "./oauth-form-lane.js";
import { Throttle } from "./throttle.js";

/**
 * Which requests the lean lane takes and which it leaves to express. The endpoint here only echoes
 * what it was given and the fallback only says it was called: the unit is the lane's routing and
 * parsing; test/e2e/oauth-form-lane.e2e.test.ts compares both paths end to end on real endpoints.
 */
describe("oauthFormLane", () => {
  let server: Server;
  let port: number;
  const limits = { rateLimitPerIp: 0, rateLimitPerClient: 0 };
  const rpc = { realms: { getRealm: async ({ name }: { name: string }) => {
    if (name === "down") throw new ConnectError("directory is down", Code.Unavailable);
    return { realm: limits };
  } } } as unknown as RpcClients;

  beforeAll(async () => {
    const lane = oauthFormLane({
      endpoints: [{
        path: "/realms/:realmName/protocol/openid-connect/token",
        handle: async (req) => ({ status: 200, body: { lane: true, realm: req.params.realmName, form: req.body, ip: req.ip }, headers: { "Cache-Control": "no-store" } }),
      }, {
        path: "/realms/:realmName/protocol/openid-connect/revoke",
        // Not a promise: a handler's synchronous throw must still be answered, not crash the lane.
        handle: () => { throw new Error("a bug's secret detail"); },
      }, {
        path: "/realms/:realmName/protocol/openid-connect/logout",
        takes: (req) => req.headers.authorization === "Basic eDp5",
        handle: async () => ({ status: 204 }),
      }],
      throttle: new Throttle(rpc),
      metrics: new HttpMetrics(new Registry()),
      logger: pino({ level: "silent" }),
      clientIp: (req) => req.socket.remoteAddress,
    }, (_req, res) => {
      res.writeHead(299, { "content-type": "text/plain" }).end("fallback");
    });
    server = createServer(lane);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => new Promise<void>((resolve) => server.close(() => resolve())));

  const send = (method: string, path: string, body: Buffer | string | undefined, headers: Record<string, string>) =>
    new Promise<{ status: number; text: string; headers: Record<string, unknown> }>((resolve, reject) => {
      const req = request({ host: "127.0.0.1", port, method, path, headers }, (res) => {
        let text = "";
        res.on("data", (c: Buffer) => (text += c.toString("utf8")));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text, headers: res.headers }));
      });
      req.on("error", reject);
      req.end(body);
    });
  const FORM = "application/x-www-form-urlencoded";
  const TOKEN = "/realms/acme%20corp/protocol/openid-connect/token";
  const plain = (body: string, extra: Record<string, string> = {}) =>
    send("POST", TOKEN, body, { "content-type": FORM, "content-length": String(Buffer.byteLength(body)), ...extra });

  it("takes a shared path only for the requests its endpoint accepts on the headers", async () => {
    const logout = (headers: Record<string, string>) =>
      send("POST", "/realms/acme/protocol/openid-connect/logout", "refresh_token=x", { "content-type": FORM, "content-length": "15", ...headers });
    expect((await logout({ authorization: "Basic eDp5" })).status).toBe(204);
    const browser = await logout({});
    expect(browser.status).toBe(299);
    expect(browser.text).toBe("fallback");
  });

  it("serves a plain form post: realm decoded, form parsed, duplicates kept as arrays", async () => {
    const res = await plain("grant_type=client_credentials&scope=a+b%20c&x=1&x=2&caf%C3%A9=%E2%82%AC");
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text)).toEqual({
      lane: true, realm: "acme corp", ip: "127.0.0.1",
      form: { grant_type: "client_credentials", scope: "a b c", x: ["1", "2"], "café": "€" },
    });
    expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers["content-length"]).toBe(String(Buffer.byteLength(res.text)));
  });

  it("takes charset=utf-8 and a query string", async () => {
    const res = await send("POST", `${TOKEN}?foo=bar`, "a=1", { "content-type": `${FORM}; charset=UTF-8`, "content-length": "3" });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text).form).toEqual({ a: "1" });
  });

  it("does not let __proto__ in a form reach the prototype", async () => {
    const res = await plain("__proto__=x&constructor=y");
    // Plain own members (an object literal with __proto__ would set the prototype instead).
    expect(res.text).toContain('"form":{"__proto__":"x","constructor":"y"}');
  });

  it.each([
    ["another method", () => send("PUT", TOKEN, "a=1", { "content-type": FORM, "content-length": "3" })],
    ["another path", () => send("POST", "/realms/acme/protocol/openid-connect/token/", "a=1", { "content-type": FORM, "content-length": "3" })],
    // Exact paths only, as the router's (DESIGN 7): express answers these spellings 404.
    ...["/realms/acme/protocol/openid-connect/TOKEN", "/realms/acme/protocol/openid-connect//token", "/realms/acme/protocol/openid-connect/token;x=1",
      "/realms/acme/protocol/openid-connect/x/../token", "/realms/acme/protocol/openid-connect%2Ftoken", "//realms/acme/protocol/openid-connect/token",
      "/realms/acme/protocol/./openid-connect/token"]
      .map((path): [string, () => ReturnType<typeof send>] => [`the spelling ${path}`, () => send("POST", path, "a=1", { "content-type": FORM, "content-length": "3" })]),
    ["JSON", () => send("POST", TOKEN, "{}", { "content-type": "application/json", "content-length": "2" })],
    ["another charset", () => send("POST", TOKEN, "a=1", { "content-type": `${FORM}; charset=iso-8859-1`, "content-length": "3" })],
    ["no content type", () => send("POST", TOKEN, "a=1", { "content-length": "3" })],
    ["a chunked body", () => send("POST", TOKEN, "a=1", { "content-type": FORM, "transfer-encoding": "chunked" })],
    ["a gzip body", () => {
      const z = gzipSync("a=1");
      return send("POST", TOKEN, z, { "content-type": FORM, "content-encoding": "gzip", "content-length": String(z.length) });
    }],
    ["an oversized body", () => {
      const big = `a=${"x".repeat(64 * 1024)}`;
      return send("POST", TOKEN, big, { "content-type": FORM, "content-length": String(big.length) });
    }],
    ["a malformed realm escape", () => send("POST", "/realms/%E0%A4%A/protocol/openid-connect/token", "a=1", { "content-type": FORM, "content-length": "3" })],
  ])("leaves %s to express", async (_what, call) => {
    const res = await call();
    expect(res.status).toBe(299);
    expect(res.text).toBe("fallback");
  });

  it("answers more than 100 parameters as express does on an OAuth endpoint: 400 invalid_request, no-store (RFC 6749 section 5.2)", async () => {
    const res = await plain(Array.from({ length: 101 }, (_, i) => `p${i}=1`).join("&"));
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text)).toEqual({ error: "invalid_request", error_description: "request body has too many parameters" });
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(res.headers.pragma).toBe("no-cache");
  });

  it("answers a failure before the endpoint (the throttle cannot read the realm) in OAuth format, no-store", async () => {
    const res = await send("POST", "/realms/down/protocol/openid-connect/token", "a=1", { "content-type": FORM, "content-length": "3" });
    expect(res.status).toBe(503);
    expect(JSON.parse(res.text)).toEqual({ error: "temporarily_unavailable", error_description: "directory is down" });
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(res.headers.pragma).toBe("no-cache");
  });

  it("applies the realm's throttle before the endpoint", async () => {
    limits.rateLimitPerClient = 1;
    const basic = { authorization: `Basic ${Buffer.from("app:x").toString("base64")}` };
    try {
      // The realm's limits are cached for 10 s: a fresh realm name reads them now.
      const path = "/realms/throttled/protocol/openid-connect/token";
      const go = () => send("POST", path, "grant_type=client_credentials", { "content-type": FORM, "content-length": "29", ...basic });
      expect((await go()).status).toBe(200);
      const over = await go();
      expect(over.status).toBe(429);
      expect(Number(over.headers["retry-after"])).toBeGreaterThanOrEqual(1);
      expect(JSON.parse(over.text)).toEqual({ error: "too_many_requests", error_description: expect.stringMatching(/^rate limit exceeded; retry after \d+ s$/) });
      expect(over.headers["cache-control"]).toBe("no-store");
      expect(over.headers.pragma).toBe("no-cache");
    } finally {
      limits.rateLimitPerClient = 0;
    }
  });

  it("answers a handler's synchronous throw as express does (500 server_error, no-store), without its message", async () => {
    const res = await send("POST", "/realms/acme/protocol/openid-connect/revoke", "token=x", { "content-type": FORM, "content-length": "7" });
    expect(res.status).toBe(500);
    expect(JSON.parse(res.text)).toEqual({ error: "server_error", error_description: "internal error" });
    expect(res.headers["cache-control"]).toBe("no-store");
    expect((await plain("a=1")).status).toBe(200);
  });
});
