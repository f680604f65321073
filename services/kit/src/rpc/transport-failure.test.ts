import { createServer, type Http2Server } from "node:http2";
import type { AddressInfo, Socket } from "node:net";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { connectNodeAdapter, createConnectTransport } from "@connectrpc/connect-node";
import pino from "pino";
import { RealmService } from "../../../../gen/iam/directory/v1/realm_pb.js";
import { ErrorDetailSchema } from "../../../../gen/iam/kit/v1/kit_pb.js";
import { IamError } from "../errors.js";
import { serverInterceptor } from "./server-interceptor.js";
import { isTransportFailure, showsSocketFailure, transportFailures } from "./transport-failure.js";

const logger = pino({ level: "silent" });

/**
 * A real Connect service over HTTP/2 on loopback, as in cluster mode. ListRealms stands for a
 * process killed mid-request: the server drops the connection under the call (the client sees
 * what it sees of a SIGKILLed peer, a reset socket).
 */
async function startService(): Promise<{ url: string; server: Http2Server; sockets: Set<Socket> }> {
  const adapter = connectNodeAdapter({
    routes: (r) => r.service(RealmService, {
      getRealm(req) {
        if (req.name === "missing") throw IamError.notFound("realm missing", "realm_not_found");
        if (req.name === "crash") throw new Error("secret detail of a bug");
        return { realm: { name: req.name } };
      },
      listRealms() {
        return { realms: [] };
      },
    }),
    interceptors: [serverInterceptor("directory", logger)],
  });
  // The raw sockets, as the kernel closes them when a process dies: a reset (RST).
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    if (req.url.endsWith("/ListRealms")) {
      for (const s of sockets) s.resetAndDestroy();
      return;
    }
    adapter(req, res);
  });
  server.on("connection", (s: Socket) => { sockets.add(s); s.on("close", () => sockets.delete(s)); });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, sockets };
}

function client(baseUrl: string, withInterceptor: boolean) {
  return createClient(RealmService, createConnectTransport({
    baseUrl, httpVersion: "2", useBinaryFormat: true, interceptors: withInterceptor ? [transportFailures("directory")] : [],
  }));
}

async function failure(p: Promise<unknown>): Promise<ConnectError> {
  try {
    await p;
  } catch (e) {
    return e as ConnectError;
  }
  throw new Error("the call succeeded");
}

describe("transport failures between processes", () => {
  let service: Awaited<ReturnType<typeof startService>>;
  beforeAll(async () => { service = await startService(); });
  afterAll(async () => {
    for (const s of service.sockets) s.destroy();
    await new Promise((r) => service.server.close(r));
  });

  it("connect-node alone files a reset connection under Internal or Aborted with the socket's message (what the gateway answered 500 or 409 with)", async () => {
    const e = await failure(client(service.url, false).listRealms({}));
    expect([Code.Internal, Code.Aborted]).toContain(e.code);
    expect(e.rawMessage).toMatch(/ECONNRESET|stream|closed/);
    expect(showsSocketFailure(e)).toBe(true);
    expect(isTransportFailure(e)).toBe(true);
  });

  it("makes a connection dropped mid-call Unavailable, with a message naming the service and nothing of the socket", async () => {
    const e = await failure(client(service.url, true).listRealms({}));
    expect(e.code).toBe(Code.Unavailable);
    expect(e.rawMessage).toBe("the directory service is temporarily unavailable");
    expect(e.findDetails(ErrorDetailSchema)[0]?.reason).toBe("unavailable");
  });

  it("makes a refused connection (the process is gone) Unavailable", async () => {
    const gone = createServer();
    await new Promise<void>((r) => gone.listen(0, "127.0.0.1", r));
    const port = (gone.address() as AddressInfo).port;
    await new Promise((r) => gone.close(r));
    const e = await failure(client(`http://127.0.0.1:${port}`, true).getRealm({ name: "acme" }));
    expect(e.code).toBe(Code.Unavailable);
    expect(e.rawMessage).toBe("the directory service is temporarily unavailable");
  });

  it("passes the service's own answers through: its errors with their detail, its internal error, its replies", async () => {
    const c = client(service.url, true);
    expect((await c.getRealm({ name: "acme" })).realm?.name).toBe("acme");
    const missing = await failure(c.getRealm({ name: "missing" }));
    expect(missing.code).toBe(Code.NotFound);
    expect(missing.findDetails(ErrorDetailSchema)[0]?.reason).toBe("realm_not_found");
    expect(isTransportFailure(missing)).toBe(false);
    const crash = await failure(c.getRealm({ name: "crash" }));
    expect(crash.code).toBe(Code.Internal);
    expect(crash.rawMessage).toBe("internal error");
    expect(isTransportFailure(crash)).toBe(false);
  });

  it("keeps a call this process cancelled Canceled", async () => {
    const ac = new AbortController();
    ac.abort();
    const e = await failure(client(service.url, true).getRealm({ name: "acme" }, { signal: ac.signal }));
    expect(e.code).toBe(Code.Canceled);
  });

  it("reads a socket failure from an error's causes, not from a service's answer", () => {
    const reset = Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" });
    expect(showsSocketFailure(new ConnectError("read ECONNRESET", Code.Internal, undefined, undefined, reset))).toBe(true);
    expect(showsSocketFailure(new ConnectError("read ECONNRESET", Code.Aborted))).toBe(true);
    expect(showsSocketFailure(new ConnectError("bad input", Code.InvalidArgument))).toBe(false);
    expect(showsSocketFailure(new Error("boom"))).toBe(false);
  });
});
