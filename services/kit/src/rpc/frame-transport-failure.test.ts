import http2 from "node:http2";
import type { AddressInfo } from "node:net";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { RealmService } from "../../../../gen/iam/directory/v1/realm_pb.js";
import { ErrorDetailSchema } from "../../../../gen/iam/kit/v1/kit_pb.js";
import { PEER_TOKEN, startFramePeer, type FramePeer } from "../../../../test/support/frame-peer.js";
import { startSilentProxy, type SilentProxy } from "../../../../test/support/silent-proxy.js";
import { contextPropagation } from "./client-interceptor.js";
import { createFrameTransport, type FrameTransport } from "./frame-transport.js";
import { presentServiceCredential } from "./service-auth.js";
import { transportFailures } from "./transport-failure.js";

const UNAVAILABLE = "Unavailable: the directory service is temporarily unavailable";

/** What the gateway sees of a peer that dies, refuses, or breaks the protocol, over a real HTTP/2 server. */
describe("the frames transport, when the peer fails", () => {
  const transports: FrameTransport[] = [];
  const peers: FramePeer[] = [];
  const peer = async (opts: Parameters<typeof startFramePeer>[0] = {}) => {
    const p = await startFramePeer(opts);
    peers.push(p);
    return p;
  };
  const proxies: SilentProxy[] = [];
  const clientOf = (url: string, opts: { token?: string; maxFrameBytes?: number; keepalive?: { intervalMs: number; timeoutMs: number } } = {}) => {
    const t = createFrameTransport({
      baseUrl: url, authorization: `Bearer ${opts.token ?? PEER_TOKEN}`, interceptors: [transportFailures("directory"), contextPropagation],
      ...(opts.maxFrameBytes ? { maxFrameBytes: opts.maxFrameBytes } : {}),
      ...(opts.keepalive ? { keepalive: opts.keepalive } : {}),
    });
    transports.push(t);
    return createClient(RealmService, t);
  };
  /** A real peer behind a proxy that can go silent, the stand-in for a machine or network that dies (one host cannot), and a client with `keepalive`. */
  const behindSilentProxy = async (keepalive: { intervalMs: number; timeoutMs: number }) => {
    const p = await peer();
    const proxy = await startSilentProxy(Number(new URL(p.url).port));
    proxies.push(proxy);
    return { p, proxy, c: clientOf(proxy.url, { keepalive }) };
  };
  const outcome = (p: Promise<unknown>) => p.then(() => "resolved", (e: unknown) => `${Code[ConnectError.from(e).code]}: ${ConnectError.from(e).rawMessage}`);

  afterAll(async () => {
    for (const t of transports) t.close();
    for (const x of proxies) await x.close();
    for (const p of peers) await p.close();
  });

  it("fails every call in flight Unavailable when the connection is reset mid-call, and reconnects on the next call", async () => {
    const p = await peer();
    const c = clientOf(p.url);
    expect(await outcome(c.getRealm({ name: "before" }))).toBe("resolved");
    // Two calls waiting on the service, then a third that makes it reset every connection (a SIGKILL).
    const waiting = [outcome(c.getRealm({ name: "slow-400" })), outcome(c.getRealm({ name: "slow-300" }))];
    const killer = outcome(c.getRealm({ name: "die" }));
    expect(await Promise.all([...waiting, killer])).toEqual([UNAVAILABLE, UNAVAILABLE, UNAVAILABLE]);
    const sessions = p.sessions.length;
    expect(await outcome(c.getRealm({ name: "after" }))).toBe("resolved");
    expect(p.sessions.length).toBe(sessions + 1);
  });

  it("finds a peer gone silent (its machine died: no reset) by an unanswered PING, fails its calls Unavailable, and reconnects", async () => {
    const { p, proxy, c } = await behindSilentProxy({ intervalMs: 100, timeoutMs: 300 });
    expect(await outcome(c.getRealm({ name: "warm" }))).toBe("resolved");
    // A peer that takes its time over a call answers the PINGs meanwhile: not taken for gone.
    expect(await outcome(c.getRealm({ name: "slow-700" }))).toBe("resolved");
    proxy.silence();
    // No deadline: without the keepalive this call would wait until TCP gave up.
    expect(await outcome(c.getRealm({ name: "lost" }))).toBe(UNAVAILABLE);
    const sessions = p.sessions.length;
    expect(await outcome(c.getRealm({ name: "after" }))).toBe("resolved");
    expect([p.sessions.length, proxy.connections]).toEqual([sessions + 1, 2]);
    expect(p.seen.has("lost")).toBe(false);
  });

  it("asks a silent peer at once when a call's deadline passes, not at the next keepalive look", async () => {
    const { proxy, c } = await behindSilentProxy({ intervalMs: 600_000, timeoutMs: 300 });
    expect(await outcome(c.getRealm({ name: "warm" }))).toBe("resolved");
    proxy.silence();
    expect(await outcome(c.getRealm({ name: "timed" }, { timeoutMs: 100 }))).toBe("DeadlineExceeded: the operation timed out");
    // Sent on the silent connection after the deadline's PING: failed when it goes unanswered.
    expect(await outcome(c.getRealm({ name: "next" }))).toBe(UNAVAILABLE);
    expect(await outcome(c.getRealm({ name: "after" }))).toBe("resolved");
    expect(proxy.connections).toBe(2);
  });

  it("calls a service of an older release, which does not serve frames (a rolling update), over the fallback hop", async () => {
    const p = await peer({ withoutFrames: true });
    const t = createFrameTransport({
      baseUrl: p.url, authorization: `Bearer ${PEER_TOKEN}`, interceptors: [transportFailures("directory"), contextPropagation],
      fallback: () => createConnectTransport({ baseUrl: p.url, httpVersion: "2", useBinaryFormat: true, interceptors: [presentServiceCredential(PEER_TOKEN)] }),
    });
    transports.push(t);
    const c = createClient(RealmService, t);
    expect(await outcome(Promise.all([c.getRealm({ name: "old-1" }), c.getRealm({ name: "old-2" })]))).toBe("resolved");
    expect(await outcome(c.getRealm({ name: "missing" }))).toBe("NotFound: realm missing not found");
    expect(await outcome(c.getRealm({ name: "slow-300" }, { timeoutMs: 50 }))).toBe("DeadlineExceeded: the operation timed out");
    expect([...p.seen.keys()].sort()).toEqual(["missing", "old-1", "old-2", "slow-300"]);
    // Without a fallback such a peer is unavailable.
    expect(await outcome(clientOf(p.url).getRealm({ name: "acme" }))).toBe(UNAVAILABLE);
  });

  it("answers a refused connection (the process is gone) Unavailable, naming the service and nothing of the socket", async () => {
    const gone = http2.createServer();
    await new Promise<void>((r) => gone.listen(0, "127.0.0.1", r));
    const port = (gone.address() as AddressInfo).port;
    await new Promise((r) => gone.close(r));
    expect(await outcome(clientOf(`http://127.0.0.1:${port}`).getRealm({ name: "acme" }))).toBe(UNAVAILABLE);
  });

  it("refuses a wrong credential with the answer the Connect hop gives: Unauthenticated, service_credential_required", async () => {
    const p = await peer();
    const overFrames = await clientOf(p.url, { token: "wrong" }).getRealm({ name: "acme" }).catch((e: unknown) => ConnectError.from(e));
    const overConnect = await createClient(RealmService, createConnectTransport({
      baseUrl: p.url, httpVersion: "2", useBinaryFormat: true, interceptors: [transportFailures("directory"), presentServiceCredential("wrong")],
    })).getRealm({ name: "acme" }).catch((e: unknown) => ConnectError.from(e));
    expect(overFrames).toBeInstanceOf(ConnectError);
    expect(overFrames).toMatchObject({ code: Code.Unauthenticated, rawMessage: "this service needs a valid bearer credential (the admin API key)" });
    expect([(overFrames as ConnectError).code, (overFrames as ConnectError).rawMessage]).toEqual([(overConnect as ConnectError).code, (overConnect as ConnectError).rawMessage]);
    expect((overFrames as ConnectError).findDetails(ErrorDetailSchema)[0]?.reason).toBe("service_credential_required");
    expect(p.seen.has("acme")).toBe(false);
  });

  it("refuses a request over the client's frame limit as the caller's error (InvalidArgument), sending nothing", async () => {
    const p = await peer();
    const c = clientOf(p.url, { maxFrameBytes: 1024 });
    expect(await outcome(c.getRealm({ name: "x".repeat(2000) }))).toBe(
      "InvalidArgument: the request to iam.directory.v1.RealmService/GetRealm is larger than the internal hop's limit of 1024 bytes");
    expect(await outcome(c.getRealm({ name: "small" }))).toBe("resolved");
    expect(p.seen.size).toBe(1);
  });

  it("drops a stream that sends a frame over the server's limit: its calls fail Unavailable, the next call reconnects", async () => {
    const p = await peer({ maxFrameBytes: 1024 });
    const c = clientOf(p.url);
    expect(await outcome(c.getRealm({ name: "x".repeat(2000) }))).toBe(UNAVAILABLE);
    expect(p.seen.size).toBe(0);
    expect(await outcome(c.getRealm({ name: "small" }))).toBe("resolved");
  });

  it("answers calls in flight and calls sent before the client saw the GOAWAY when the service drains (SIGTERM)", async () => {
    const p = await peer();
    const c = clientOf(p.url);
    expect(await outcome(c.getRealm({ name: "warm" }))).toBe("resolved");
    const inFlight = outcome(c.getRealm({ name: "slow-150" }));
    await new Promise((r) => setTimeout(r, 30));
    const closing = p.close(2000);
    // Sent on the old stream in the same turn: the client has not read the GOAWAY yet.
    const raced = outcome(c.getRealm({ name: "raced" }));
    expect(await inFlight).toBe("resolved");
    expect(await raced).toBe("resolved");
    await closing;
    // Gone now: a new connection is refused.
    expect(await outcome(c.getRealm({ name: "later" }))).toBe(UNAVAILABLE);
  });

  it("answers a call sent to an idle stream just as the service starts draining", async () => {
    const p = await peer();
    const c = clientOf(p.url);
    expect(await outcome(c.getRealm({ name: "warm" }))).toBe("resolved");
    const closing = p.close(2000);
    expect(await outcome(c.getRealm({ name: "raced" }))).toBe("resolved");
    await closing;
  });
});
