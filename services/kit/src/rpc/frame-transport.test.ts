import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { RealmService } from "../../../../gen/iam/directory/v1/realm_pb.js";
import { ErrorDetailSchema } from "../../../../gen/iam/kit/v1/kit_pb.js";
import { runWithContext, LazyRequestContext } from "../context.js";
import pino from "pino";
import { PEER_TOKEN, startFramePeer, type FramePeer } from "../../../../test/support/frame-peer.js";
import { createConnectTransport } from "@connectrpc/connect-node";
import { contextPropagation } from "./client-interceptor.js";
import { presentServiceCredential } from "./service-auth.js";
import { createFrameTransport, type FrameTransport } from "./frame-transport.js";
import { isTransportFailure, transportFailures } from "./transport-failure.js";

/** A real HTTP/2 server on loopback (frame-peer.ts) and the frames transport as cluster mode builds it. */
describe("the frames transport, round trips over a real HTTP/2 server", () => {
  let peer: FramePeer;
  const transports: FrameTransport[] = [];
  const clientOf = (connections = 1) => {
    const t = createFrameTransport({
      baseUrl: peer.url, authorization: `Bearer ${PEER_TOKEN}`, interceptors: [transportFailures("directory"), contextPropagation], connections,
    });
    transports.push(t);
    return createClient(RealmService, t);
  };
  const failure = (p: Promise<unknown>) => p.then(() => { throw new Error("the call succeeded"); }, (e: unknown) => e as ConnectError);

  beforeAll(async () => { peer = await startFramePeer(); });
  afterAll(async () => {
    for (const t of transports) t.close();
    await peer.close();
  });

  it("answers a unary call with a complete message of the output type, carrying the request id and actor", async () => {
    const ctx = new LazyRequestContext("req-frames-1", pino({ level: "silent" }), "test", { type: "admin", adminId: "u1", username: "alice" });
    const res = await runWithContext(ctx, () => clientOf().getRealm({ name: "acme" }));
    expect(res.$typeName).toBe("iam.directory.v1.GetRealmResponse");
    expect(res.realm?.$typeName).toBe("iam.directory.v1.Realm");
    expect(res.realm).toMatchObject({ name: "acme", displayName: "Realm acme", enabled: true });
    expect(peer.seen.get("acme")).toEqual({ requestId: "req-frames-1", actor: "alice", timeoutMs: undefined });
  });

  it("passes a service's IamError through as the Connect hop does: code, message, ErrorDetail; its internal error as such", async () => {
    const c = clientOf();
    const missing = await failure(c.getRealm({ name: "missing" }));
    const overConnect = await failure(createClient(RealmService, createConnectTransport({
      baseUrl: peer.url, httpVersion: "2", useBinaryFormat: true, interceptors: [transportFailures("directory"), presentServiceCredential(PEER_TOKEN)],
    })).getRealm({ name: "missing" }));
    expect(missing).toBeInstanceOf(ConnectError);
    expect(missing.code).toBe(Code.NotFound);
    expect(missing.rawMessage).toBe("realm missing not found");
    expect([missing.code, missing.rawMessage, missing.message]).toEqual([overConnect.code, overConnect.rawMessage, overConnect.message]);
    expect(missing.findDetails(ErrorDetailSchema)).toEqual(overConnect.findDetails(ErrorDetailSchema));
    expect(missing.findDetails(ErrorDetailSchema)).toEqual([expect.objectContaining({ reason: "realm_not_found", field: "", oauthError: "" })]);
    expect(isTransportFailure(missing)).toBe(false);
    const crash = await failure(c.getRealm({ name: "crash" }));
    expect(crash.code).toBe(Code.Internal);
    expect(crash.rawMessage).toBe("internal error");
    expect(crash.findDetails(ErrorDetailSchema)).toEqual([]);
    expect(isTransportFailure(crash)).toBe(false);
  });

  it("multiplexes concurrent calls on one connection and matches replies that come back out of order", async () => {
    const before = peer.sessions.length;
    const c = clientOf();
    const done: string[] = [];
    const names = ["slow-120", "slow-60", "quick", "slow-10"];
    const replies = await Promise.all(names.map((name) => c.getRealm({ name }).then((r) => { done.push(name); return r.realm?.name; })));
    expect(replies).toEqual(names);
    expect(done).toEqual(["quick", "slow-10", "slow-60", "slow-120"]);
    expect(peer.sessions.length - before).toBe(1);
  });

  it("spreads calls over TESSERA_INTERNAL_CONNECTIONS connections in turn", async () => {
    const before = peer.sessions.length;
    const c = clientOf(3);
    await Promise.all(["r1", "r2", "r3", "r4", "r5", "r6"].map((name) => c.getRealm({ name })));
    expect(peer.sessions.length - before).toBe(3);
  });

  it("fails a call whose deadline passes DeadlineExceeded, tells the service its deadline, and keeps the connection", async () => {
    const c = clientOf();
    const late = await failure(c.getRealm({ name: "slow-300" }, { timeoutMs: 50 }));
    expect(late.code).toBe(Code.DeadlineExceeded);
    expect(late.rawMessage).toBe("the operation timed out");
    const t = peer.seen.get("slow-300")?.timeoutMs;
    expect(t).toBeGreaterThan(0);
    expect(t).toBeLessThanOrEqual(50);
    expect((await c.getRealm({ name: "after-deadline" }, { timeoutMs: 5000 })).realm?.name).toBe("after-deadline");
  });

  it("honours the caller's signal: Canceled, before or during the call", async () => {
    const c = clientOf();
    const gone = new AbortController();
    gone.abort();
    expect((await failure(c.getRealm({ name: "acme" }, { signal: gone.signal }))).code).toBe(Code.Canceled);
    const later = new AbortController();
    const call = failure(c.getRealm({ name: "slow-200" }, { signal: later.signal }));
    setTimeout(() => later.abort(), 20);
    expect((await call).code).toBe(Code.Canceled);
  });

  it("rejects streaming calls as Unimplemented", async () => {
    const t = createFrameTransport({ baseUrl: peer.url });
    const e = await failure(t.stream(RealmService.method.getRealm as never, undefined, undefined, undefined, (async function* () { /* none */ })()));
    expect(e.code).toBe(Code.Unimplemented);
  });
});
