import http from "node:http";
import http2 from "node:http2";
import net from "node:net";
import type { Http2Session } from "node:http2";

type Handler = (req: http.IncomingMessage | http2.Http2ServerRequest, res: http.ServerResponse | http2.Http2ServerResponse) => void;

/** RFC 9113 section 3.4: a cleartext HTTP/2 connection with prior knowledge starts with this. */
const PREFACE_START = "PRI ";

/**
 * One TCP port that speaks cleartext HTTP/2 (gRPC, Connect between the processes) and HTTP/1.1
 * (what cannot do HTTP/2 with prior knowledge: the kubelet's probes, Prometheus' scrapes, curl).
 * Node 20's plain `http2.createServer` has no `allowHTTP1` (that negotiation needs TLS's ALPN), so
 * the first bytes decide: the HTTP/2 connection preface goes to the HTTP/2 server, anything else
 * to the HTTP/1.1 server. The bytes read to decide are handed back unread (`unshift`); a paused
 * socket keeps them for the HTTP/2 session, which takes them before reading from the handle.
 */
export class DualProtocolServer {
  private readonly h2: http2.Http2Server;
  private readonly h1: http.Server;
  private readonly tcp: net.Server;
  private readonly sessions = new Set<Http2Session>();
  /**
   * HTTP/1.1 connections and their requests in flight. The HTTP/1.1 server never listens itself
   * (it is handed connections), so its own idle-connection tracking is not set up; this is it.
   */
  private readonly h1Sockets = new Map<net.Socket, number>();
  private draining = false;

  constructor(handler: Handler) {
    this.h2 = http2.createServer(handler);
    this.h1 = http.createServer((req, res) => {
      const socket = req.socket;
      this.h1Sockets.set(socket, (this.h1Sockets.get(socket) ?? 0) + 1);
      if (this.draining) res.setHeader("connection", "close");
      res.once("close", () => {
        const left = (this.h1Sockets.get(socket) ?? 1) - 1;
        if (!this.h1Sockets.has(socket)) return;
        this.h1Sockets.set(socket, left);
        if (left === 0 && this.draining) socket.destroy();
      });
      handler(req, res);
    });
    this.h2.on("session", (s) => { this.sessions.add(s); s.on("close", () => this.sessions.delete(s)); });
    this.tcp = net.createServer((socket) => this.route(socket, Buffer.alloc(0)));
  }

  private route(socket: net.Socket, seen: Buffer): void {
    socket.once("data", (chunk: Buffer) => {
      const head = Buffer.concat([seen, chunk]);
      const start = head.subarray(0, PREFACE_START.length).toString("latin1");
      if (head.length < PREFACE_START.length && PREFACE_START.startsWith(start)) {
        this.route(socket, head);
        return;
      }
      socket.pause();
      socket.unshift(head);
      if (start === PREFACE_START) {
        this.h2.emit("connection", socket);
      } else {
        this.h1Sockets.set(socket, 0);
        socket.once("close", () => this.h1Sockets.delete(socket));
        this.h1.emit("connection", socket);
        socket.resume();
      }
    });
    socket.on("error", () => socket.destroy());
  }

  listen(port: number, host: string): Promise<void> {
    return new Promise((resolve, reject) => {
      this.tcp.once("error", reject);
      this.tcp.listen(port, host, () => { this.tcp.off("error", reject); resolve(); });
    });
  }

  /**
   * Stops accepting connections and lets in-flight requests finish: HTTP/2 sessions get a GOAWAY
   * (open streams finish, no new ones start), HTTP/1.1 connections close as they go idle (a
   * request arriving meanwhile is answered with `Connection: close`), and whatever is still open
   * after `timeoutMs` is cut.
   */
  async close(timeoutMs = 10_000): Promise<void> {
    const closed = new Promise<void>((resolve) => this.tcp.close(() => resolve()));
    this.draining = true;
    for (const s of this.sessions) s.close();
    for (const [socket, inflight] of this.h1Sockets) if (inflight === 0) socket.destroy();
    const timer = setTimeout(() => {
      for (const socket of this.h1Sockets.keys()) socket.destroy();
      for (const s of this.sessions) s.destroy();
    }, timeoutMs);
    timer.unref();
    await closed;
    clearTimeout(timer);
  }
}
