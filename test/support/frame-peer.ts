import type { AddressInfo, Socket } from "node:net";
import type { Http2Session } from "node:http2";
import pino from "pino";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import { RealmService } from "../../gen/iam/directory/v1/realm_pb.js";
import { IamError } from "../../services/kit/src/errors.js";
import { currentContext } from "../../services/kit/src/context.js";
import { serverInterceptor } from "../../services/kit/src/rpc/server-interceptor.js";
import { requireServiceCredential, serviceCredentialCheck } from "../../services/kit/src/rpc/service-auth.js";
import { FrameServer } from "../../services/kit/src/rpc/frame-server.js";
import { DualProtocolServer } from "../../services/kit/src/runtime/dual-protocol-server.js";

export const PEER_TOKEN = "peer-test-token";

export interface FramePeer {
  url: string;
  /** Request ids and actors the handlers saw, by realm name asked for. */
  seen: Map<string, { requestId?: string; actor?: string; timeoutMs?: number }>;
  /** HTTP/2 sessions the server has accepted so far. */
  sessions: Http2Session[];
  /** Every TCP connection accepted, to reset them as the kernel does when a process dies. */
  sockets: Set<Socket>;
  frames: FrameServer;
  /** As serve-service.ts shuts down: GOAWAY, frames streams end as their calls are answered. */
  close(timeoutMs?: number): Promise<void>;
}

/**
 * A real service process's serving stack on loopback, as serve-service.ts builds it: the frames
 * hop and Connect on one DualProtocolServer port, the same interceptors and credential check.
 * RealmService.GetRealm acts by the realm name asked for:
 *   missing -> IamError NotFound; crash -> a bug (Internal); slow-<ms> -> answers after <ms>;
 *   die -> every connection is reset under the call (a SIGKILLed peer); anything else -> the realm.
 */
export async function startFramePeer(opts: { maxFrameBytes?: number; withoutFrames?: boolean } = {}): Promise<FramePeer> {
  const logger = pino({ level: "silent" });
  const seen: FramePeer["seen"] = new Map();
  const sockets = new Set<Socket>();
  const sessions: Http2Session[] = [];
  const routes = (r: Parameters<NonNullable<Parameters<typeof connectNodeAdapter>[0]["routes"]>>[0]) => r.service(RealmService, {
    async getRealm(req, ctx) {
      seen.set(req.name, { requestId: currentContext()?.requestId, actor: currentContext()?.actor?.username, timeoutMs: ctx.timeoutMs() });
      if (req.name === "missing") throw IamError.notFound("realm missing", "realm_not_found");
      if (req.name === "crash") throw new Error("secret detail of a bug");
      if (req.name === "die") {
        for (const s of sockets) s.resetAndDestroy();
        await new Promise(() => undefined);
      }
      const slow = /^slow-(\d+)$/.exec(req.name);
      if (slow) await new Promise((resolve) => setTimeout(resolve, Number(slow[1])));
      return { realm: { name: req.name, displayName: `Realm ${req.name}`, enabled: true } };
    },
  });
  const interceptors = [serverInterceptor("directory", logger)];
  const frames = new FrameServer({
    routes, interceptors, credentialAccepted: serviceCredentialCheck([PEER_TOKEN]), logger,
    ...(opts.maxFrameBytes ? { maxFrameBytes: opts.maxFrameBytes } : {}),
  });
  const connect = connectNodeAdapter({ routes, interceptors: [...interceptors, requireServiceCredential([PEER_TOKEN])] });
  // withoutFrames: a service of a release before the frames hop (Connect answers the path 404).
  const server = new DualProtocolServer((req, res) => (!opts.withoutFrames && frames.handles(req) ? frames.accept(req, res) : connect(req, res)));
  const internals = server as unknown as { tcp: import("node:net").Server; h2: import("node:http2").Http2Server };
  internals.tcp.on("connection", (s: Socket) => { sockets.add(s); s.on("close", () => sockets.delete(s)); });
  internals.h2.on("session", (s: Http2Session) => sessions.push(s));
  await server.listen(0, "127.0.0.1");
  const port = (internals.tcp.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`, seen, sessions, sockets, frames,
    close: async (timeoutMs = 100) => {
      const closed = server.close(timeoutMs);
      frames.drain();
      await closed;
    },
  };
}
