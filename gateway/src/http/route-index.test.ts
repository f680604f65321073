import express, { Router, type NextFunction, type Request, type Response } from "express";
import pino from "pino";
import { Registry } from "prom-client";
import { createGateway } from "../app.js";
import type { AdminTokens } from "../admin/admin-tokens.js";
import type { RpcClients } from "../rpc-clients.js";
import { HttpMetrics } from "./http-metrics.js";
import { RouteIndex } from "./route-index.js";
import { RouteTable } from "./route-table.js";

/**
 * The route index picks the path express's router would (DESIGN 7: exact routing). The
 * differential check runs the gateway's real paths and thousands of probe paths through both
 * the index (and the RouteTable mounted on it) and an express router holding every path in
 * registration order, and requires the same answer for each.
 */

/** The gateway's own paths, in registration order (building the gateway only registers its routes). */
const gatewayPaths: string[] = [...new Set(createGateway({
  rpc: {} as RpcClients, logger: pino({ level: "silent" }), registries: [], httpMetrics: new HttpMetrics(new Registry()),
  apiKeySha256: "", adminTokens: {} as AdminTokens, publicUrl: "http://localhost",
}).routes().map((r) => r.path))];

type Outcome = string;
interface Probe { method: string; url: string }
type Handle = (req: Request, res: Response, done: (err?: unknown) => void) => void;
/** express's `handle(req, res, done)` of a router or an app, which its types do not declare. */
const handleOf = (x: object): Handle => {
  const h = (x as { handle: Handle }).handle;
  return (q, s, d) => h.call(x, q, s, d);
};

/** Runs one request through a handler taking (req, res, done), answering what became of it. */
function dispatch(handle: Handle, probe: Probe, settle: { fn?: (o: Outcome) => void }): Promise<Outcome> {
  return new Promise<Outcome>((resolve) => {
    settle.fn = resolve;
    const req = { method: probe.method, url: probe.url, headers: {} } as unknown as Request;
    handle(req, {} as Response, (err?: unknown) => resolve(err ? `error ${(err as { status?: number }).status}` : "no route"));
  });
}

const matched = (req: Request) => `${(req.route as { path: string }).path} ${JSON.stringify(req.params)}`;

/** express's router: every path in registration order, exact, each recording that it was reached. */
function expressRouter(paths: string[]) {
  const settle: { fn?: (o: Outcome) => void } = {};
  const router = Router({ caseSensitive: true, strict: true });
  for (const path of paths) router.route(path).all((req: Request) => settle.fn!(matched(req)));
  return (probe: Probe) => dispatch(handleOf(router), probe, settle);
}

/** The RouteTable holding the same paths, mounted on an app with the gateway's terminal handlers' shape. */
function mountedTable(paths: string[]) {
  const settle: { fn?: (o: Outcome) => void } = {};
  const table = new RouteTable();
  for (const path of paths) {
    table.add("GET", path, "public", async () => undefined, (req: Request) => settle.fn!(matched(req)));
  }
  const app = express();
  app.disable("x-powered-by");
  table.mount(app, { adminGuard: (_q, _s, n) => n(), jsonParser: () => (_q, _s, n) => n(), adminAccess: () => (_q, _s, n) => n() });
  app.use(() => settle.fn!("no route"));
  app.use((err: { status?: number }, _req: Request, _res: Response, _next: NextFunction) => settle.fn!(`error ${err.status}`));
  return (probe: Probe) => dispatch(handleOf(app), probe, settle);
}

/** The raw pathname express matches (parseurl's, through express's own req.path); none is no route. */
const pathnameOf = (url: string): string => (Object.setPrototypeOf({ url }, express.request) as Request).path ?? "";

const SAMPLES = ["x1", "%41", "a.b", "%2F", "%2f", "%zz", "A", "themes", ";x=1", "..", "%2e"];

function fill(path: string, value: (i: number) => string): string {
  let n = 0;
  return path.replace(/:[A-Za-z_$][A-Za-z0-9_$]*/g, () => value(n++));
}

/** The route walk's spellings of a concrete path (test/e2e/route-walk.e2e.test.ts). */
function spellings(path: string): string[] {
  const segs = path.split("/").slice(1);
  const join = (s: string[]) => `/${s.join("/")}`;
  const out = [`${path}/`, `/${path}`, `${path};x=1`, `${path}//`, path.toUpperCase()];
  const [first, ...rest] = segs;
  if (first) out.push(`/%${first.charCodeAt(0).toString(16)}${first.slice(1)}${rest.length ? "/" + rest.join("/") : ""}`, join([first[0]!.toUpperCase() + first.slice(1), ...rest]));
  for (let i = 0; i < segs.length - 1; i++) {
    const head = join(segs.slice(0, i + 1));
    const tail = segs.slice(i + 1).join("/");
    for (const insert of ["//", "/./", "/x/../", "/x/%2e%2e/", "%2F", "%2f", ";/"]) out.push(`${head}${insert}${tail}`);
  }
  if (segs.length > 1) out.push(join(segs.slice(0, -1)), join([...segs.slice(0, -1), segs[segs.length - 1]!.toUpperCase()]));
  return out;
}

/** Deterministic random paths from the table's own segments, so they often nearly match. */
function randomPaths(paths: string[], count: number): string[] {
  const pool = [...new Set(paths.flatMap((p) => p.split("/").slice(1)).filter((s) => !s.startsWith(":"))), ...SAMPLES, "", "X", "."];
  let seed = 20260707;
  const next = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648) % n);
  return Array.from({ length: count }, () => "/" + Array.from({ length: next(8) }, () => pool[next(pool.length)]!).join("/"));
}

function probes(paths: string[]): Probe[] {
  const urls = new Set<string>(["/", "", "*", "//", "/?a=b", "/.", "http://localhost/", "http://localhost/admin/realms?x=1"]);
  for (const path of paths) {
    for (const sample of SAMPLES) urls.add(fill(path, () => sample));
    // One bad parameter among good ones: express decodes them all and fails on the bad.
    const count = (path.match(/\/:/g) ?? []).length;
    for (let k = 0; k < count; k++) urls.add(fill(path, (i) => (i === k ? "%zz" : "x1")));
    const concrete = fill(path, () => "x1");
    urls.add(`${concrete}?q=%zz`);
    for (const s of spellings(concrete)) urls.add(s);
  }
  for (const url of randomPaths(paths, 3000)) urls.add(url);
  const all = [...urls].map((url) => ({ method: "GET", url }));
  // HEAD is served by the GET route, in either.
  return [...all, ...paths.map((p) => ({ method: "HEAD", url: fill(p, () => "x1") }))];
}

describe("RouteIndex", () => {
  it("agrees with express's router on every probe of the gateway's paths", async () => {
    expect(gatewayPaths.length).toBeGreaterThan(100);
    const index = new RouteIndex(gatewayPaths);
    const reference = expressRouter(gatewayPaths);
    const table = mountedTable(gatewayPaths);
    // Which single path express errs on: the first whose own router does not answer "no route".
    const alone = gatewayPaths.map((p) => expressRouter([p]));
    const all = probes(gatewayPaths);
    const mismatches: unknown[] = [];
    const kinds = { routed: 0, none: 0, badParam: 0 };
    for (const probe of all) {
      const expected = await reference(probe);
      let expectedPath: string | undefined;
      if (expected.startsWith("error")) {
        kinds.badParam++;
        for (let i = 0; i < alone.length && expectedPath === undefined; i++) {
          if ((await alone[i]!(probe)) !== "no route") expectedPath = gatewayPaths[i];
        }
      } else if (expected === "no route") kinds.none++;
      else {
        kinds.routed++;
        expectedPath = expected.slice(0, expected.indexOf(" "));
      }
      const found = index.lookup(pathnameOf(probe.url));
      const mounted = await table(probe);
      const got = found === undefined ? undefined : gatewayPaths[found];
      if (got !== expectedPath || mounted !== expected) mismatches.push({ probe, expected, expectedPath, got, mounted });
    }
    expect(mismatches).toEqual([]);
    // The probes reach every path, miss often, and hit the malformed-parameter 400.
    expect(all.length).toBeGreaterThan(5000);
    expect(kinds.routed).toBeGreaterThan(gatewayPaths.length * SAMPLES.length / 2);
    expect(kinds.none).toBeGreaterThan(3000);
    expect(kinds.badParam).toBeGreaterThan(100);
    const reached = new Set(await Promise.all(gatewayPaths.map((p) => reference({ method: "GET", url: fill(p, () => "x1") }))));
    expect(reached.size).toBe(gatewayPaths.length);
  });

  it("answers a malformed parameter with express's 400 error, through the mounted table", async () => {
    const table = mountedTable(["/realms/:realmName/account"]);
    expect(await table({ method: "GET", url: "/realms/%zz/account" })).toBe("error 400");
    expect(await table({ method: "GET", url: "/realms/%41%2F/account" })).toBe('/realms/:realmName/account {"realmName":"A/"}');
  });

  it("picks the path registered first, literal or parameter", () => {
    const literalFirst = new RouteIndex(["/a/b", "/a/:x", "/a/:x/c"]);
    expect([literalFirst.lookup("/a/b"), literalFirst.lookup("/a/z"), literalFirst.lookup("/a/b/c")]).toEqual([0, 1, 2]);
    const paramFirst = new RouteIndex(["/a/:x", "/a/b"]);
    expect([paramFirst.lookup("/a/b"), paramFirst.lookup("/a/B")]).toEqual([0, 0]);
    // The literal branch dead-ends; the parameter branch matches: backtracking finds it.
    const backtrack = new RouteIndex(["/a/b/d", "/a/:x/c", "/:y/b/c"]);
    expect([backtrack.lookup("/a/b/c"), backtrack.lookup("/z/b/c"), backtrack.lookup("/a/b/e")]).toEqual([1, 2, undefined]);
    // Two spellings of one shape: the first wins.
    expect(new RouteIndex(["/a/:x", "/a/:y"]).lookup("/a/q")).toBe(0);
  });

  it("matches exactly: case, empty segments, the root", () => {
    const index = new RouteIndex(["/", "/a", "/a/:x"]);
    expect(["/", "/a", "/a/q"].map((p) => index.lookup(p))).toEqual([0, 1, 2]);
    expect(["", "*", "//", "/A", "/a/", "//a", "/a//", "/a/q/", "/a//q", "a"].map((p) => index.lookup(p))).toEqual(Array(10).fill(undefined));
    expect(new RouteIndex(["/a/:x"]).lookup("/a/%2F;x=1")).toBe(0);
  });

  it("refuses a path whose segment is neither literal nor one parameter, naming it", () => {
    for (const path of ["/a/:x-:y", "/a/*rest", "/a{/b}", "/a/(b)", "/a/b?", "/a/:x.json", "/a/b+", "/a/b!", "/a/\\:b", "/a/[b]", "/a/:", "/a/:1x", "a/b"]) {
      expect(() => new RouteIndex(["/ok", path])).toThrow(path);
    }
    const table = new RouteTable().add("GET", "/files/*rest", "public", async () => undefined);
    expect(() => table.mount(express(), { adminGuard: (_q, _s, n) => n(), jsonParser: () => (_q, _s, n) => n(), adminAccess: () => (_q, _s, n) => n() }))
      .toThrow('route path /files/*rest has a segment "*rest" that is neither literal text nor one :parameter');
  });
});
