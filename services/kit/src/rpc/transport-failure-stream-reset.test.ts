import http2 from "node:http2";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { connectNodeAdapter, createConnectTransport } from "@connectrpc/connect-node";
import type { AddressInfo } from "node:net";
import { AuditService } from "../../../../gen/iam/audit/v1/audit_pb.js";
import { transportFailures } from "./transport-failure.js";

describe("transportFailures, when the peer dies mid-call", () => {
  let server: http2.Http2Server;
  let port: number;
  beforeAll(async () => {
    // A server whose process "dies" mid-call: the call's session is destroyed before any reply.
    const handler = connectNodeAdapter({
      routes: (r) => r.service(AuditService, {
        health: async (_req, ctx) => {
          await new Promise((resolve) => setTimeout(resolve, 50));
          for (const s of sessions) s.destroy();
          await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve));
          return {};
        },
      }),
    });
    const sessions = new Set<http2.ServerHttp2Session>();
    server = http2.createServer(handler);
    server.on("session", (s) => sessions.add(s));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const client = (interceptors: Parameters<typeof createConnectTransport>[0]["interceptors"]) =>
    createClient(AuditService, createConnectTransport({ baseUrl: `http://127.0.0.1:${port}`, httpVersion: "2", ...(interceptors ? { interceptors } : {}) }));
  const codeOf = async (p: Promise<unknown>) => p.then(() => "resolved", (e) => `${Code[ConnectError.from(e).code]}: ${ConnectError.from(e).rawMessage}`);

  it("turns a call whose peer went away into Unavailable, naming the service", async () => {
    // Without the interceptor connect-node reports it as Canceled (which would answer 500).
    expect(await codeOf(client([]).health({}))).toMatch(/^Canceled: http\/2 stream closed/);
    expect(await codeOf(client([transportFailures("audit")]).health({})))
      .toBe("Unavailable: the audit service is temporarily unavailable");
  });

  it("keeps a call this process cancelled Canceled", async () => {
    const ac = new AbortController();
    const call = client([transportFailures("audit")]).health({}, { signal: ac.signal });
    ac.abort();
    expect(await codeOf(call)).toMatch(/^Canceled/);
  });

  it("answers a refused connection as Unavailable too, without the socket's message", async () => {
    const refused = (interceptors: Parameters<typeof createConnectTransport>[0]["interceptors"]) =>
      createClient(AuditService, createConnectTransport({ baseUrl: "http://127.0.0.1:1", httpVersion: "2", ...(interceptors ? { interceptors } : {}) }));
    const plain = await codeOf(refused([]).health({}));
    expect(plain).toMatch(/ECONNREFUSED/);
    expect(await codeOf(refused([transportFailures("audit")]).health({}))).toBe("Unavailable: the audit service is temporarily unavailable");
  });
});
