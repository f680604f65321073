import http2 from "node:http2";
import { Code, ConnectError } from "@connectrpc/connect";
import { create } from "@bufbuild/protobuf";
import { ErrorDetailSchema } from "../../../../gen/iam/kit/v1/kit_pb.js";
import { encodeRequest, FrameReader, decodeFrame, REPLY_OK, REQUEST, type Bytes, type ErrorFrame } from "./frame-codec.js";
import { FrameWriter } from "./frame-writer.js";
import { NEVER } from "./unary-call.js";

/** The reserved path of the frames stream, on each service's own URL and port. */
export const FRAMES_PATH = "/tessera.internal.v1/frames";
export const FRAMES_CONTENT_TYPE = "application/x-tessera-frames";

/**
 * The peer answered the frames stream 404: a service of a release before the frames hop (during a
 * rolling update). It read none of the stream's calls, so they may be sent again by another hop.
 */
export class FramesNotServed extends Error {
  constructor(baseUrl: string) {
    super(`${baseUrl} does not serve ${FRAMES_PATH}`);
  }
}

/** What a call may have its signal swapped on: a deadline passed here aborts it, as Connect's does. */
export interface CallSignal { signal: AbortSignal }

interface Pending {
  resolve(message: Bytes): void;
  reject(e: unknown): void;
  signal: AbortSignal;
  timer: NodeJS.Timeout | undefined;
  onAbort: (() => void) | undefined;
}

const EXPIRED = AbortSignal.abort(new ConnectError("the operation timed out", Code.DeadlineExceeded));

/**
 * When a channel with calls in flight has heard nothing from its peer for `intervalMs`, it sends an
 * HTTP/2 PING (RFC 9113 section 6.7), which the peer's HTTP/2 layer answers whatever its handlers
 * are doing; no answer within `timeoutMs` and the peer is taken for gone.
 */
export interface Keepalive {
  intervalMs: number;
  timeoutMs: number;
}

/**
 * A peer whose machine died or whose network went away sends no reset: without a probe its
 * connection looks open until TCP gives up (about 15 minutes on Linux), and every call sent on it
 * waits that long; most calls have no deadline. gRPC's keepalive does the same (its
 * keepalive_time and keepalive_timeout), with a generous timeout so a busy peer is not dropped.
 */
export const DEFAULT_KEEPALIVE: Keepalive = { intervalMs: 5_000, timeoutMs: 10_000 };

/**
 * One HTTP/2 connection to a peer and one long-lived stream on it, which carries every call as a
 * request frame and its answer as a reply frame with the same call id (frame-codec.ts). The
 * credential is presented once, in the stream's headers.
 *
 * Any failure of the connection or the stream (a refused connect, a peer killed mid-call, a reset,
 * a reply that does not parse) fails every call in flight with Unavailable and no detail, which
 * `transportFailures` turns into the one "service temporarily unavailable" answer; the channel is
 * then `closed` and the transport opens a new one on the next call. A GOAWAY (the peer is draining)
 * closes it for new calls while those in flight are still answered. A peer that goes silent is
 * found by the keepalive (Keepalive) and fails the same way.
 */
export class FrameChannel {
  /** Takes no new calls. */
  closed = false;
  private dead = false;
  private readonly session: http2.ClientHttp2Session;
  private readonly writer: FrameWriter;
  private readonly reader: FrameReader;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  /** When the peer was last heard from (a frame's bytes or a PING's answer), or the wait began. */
  private heardAt = 0;
  /** Looks for a silent peer while calls are in flight (Keepalive); one timer for the channel's life. */
  private readonly watch: NodeJS.Timeout;
  private pinging = false;

  constructor(
    private readonly baseUrl: string,
    authorization: string | undefined,
    private readonly maxFrameBytes: number,
    private readonly keepalive: Keepalive = DEFAULT_KEEPALIVE,
  ) {
    this.reader = new FrameReader(maxFrameBytes);
    const session = http2.connect(baseUrl);
    this.session = session;
    session.on("error", (e) => this.fail(e));
    session.on("close", () => this.fail());
    // The peer is draining: no new calls here, and the stream is half-closed once what is queued
    // is sent, which tells the peer it may end the stream after answering the calls in flight.
    session.on("goaway", () => {
      this.closed = true;
      this.writer.end();
    });
    // An idle channel must not keep its process alive; one with calls in flight does (ref in
    // waitBegins(), unref in settle()).
    session.unref();
    const stream = session.request({
      ":method": "POST", ":path": FRAMES_PATH, "content-type": FRAMES_CONTENT_TYPE,
      ...(authorization ? { authorization } : {}),
    }, { endStream: false });
    stream.on("response", (headers) => {
      const status = headers[":status"];
      if (status === 404) this.fail(new FramesNotServed(baseUrl));
      else if (status !== 200) this.fail(new Error(`the frames stream was answered HTTP ${status}`));
    });
    stream.on("data", (chunk: Buffer) => {
      this.heardAt = Date.now();
      try {
        this.reader.push(chunk, this.onFrame);
      } catch (e) {
        this.fail(e);
      }
    });
    stream.on("end", () => this.fail());
    stream.on("close", () => this.fail());
    stream.on("error", (e) => this.fail(e));
    this.writer = new FrameWriter(stream);
    this.watch = setInterval(() => {
      if (this.pending.size > 0 && Date.now() - this.heardAt >= this.keepalive.intervalMs) this.probe();
    }, this.keepalive.intervalMs);
    // The session holds the process while calls wait (waitBegins); the timer never does.
    this.watch.unref();
  }

  /** Sends one call; resolves with the reply's message bytes or rejects with a ConnectError. */
  call(req: CallSignal, key: string, headers: ReadonlyArray<[string, string]>, timeoutMs: number | undefined, message: Bytes): Promise<Bytes> {
    const signal = req.signal;
    if (signal.aborted) return Promise.reject(ConnectError.from(signal.reason, Code.Canceled));
    if (this.closed) return Promise.reject(this.unavailable());
    const callId = this.nextId;
    this.nextId = this.nextId === 0xffffffff ? 1 : this.nextId + 1;
    let frame: Buffer;
    try {
      frame = encodeRequest(callId, timeoutMs && timeoutMs > 0 ? Math.min(Math.ceil(timeoutMs), 0xffffffff) : 0, key, headers, message, this.maxFrameBytes);
    } catch {
      // The caller's input, not the peer's health: a 400 naming the limit, not a retryable 503.
      const detail = create(ErrorDetailSchema, { reason: "message_too_large", field: "", oauthError: "" });
      return Promise.reject(new ConnectError(`the request to ${key} is larger than the internal hop's limit of ${this.maxFrameBytes} bytes`,
        Code.InvalidArgument, undefined, [{ desc: ErrorDetailSchema, value: detail }]));
    }
    return new Promise<Bytes>((resolve, reject) => {
      const p: Pending = { resolve, reject, signal, timer: undefined, onAbort: undefined };
      if (timeoutMs !== undefined && timeoutMs > 0) {
        p.timer = setTimeout(() => {
          if (!this.settle(callId)) return;
          req.signal = EXPIRED;
          reject(new ConnectError("the operation timed out", Code.DeadlineExceeded));
          // A call that ran out of time may mean a silent peer: ask now rather than at the next look.
          this.probe();
        }, timeoutMs);
      }
      // A listener only for a caller's own signal; most calls pass none (no per-call cost then).
      if (signal !== NEVER) {
        p.onAbort = () => {
          if (this.settle(callId)) reject(ConnectError.from(signal.reason, Code.Canceled));
        };
        signal.addEventListener("abort", p.onAbort, { once: true });
      }
      if (this.pending.size === 0) this.waitBegins();
      this.pending.set(callId, p);
      this.writer.send(frame);
    });
  }

  /** Closes the channel now; calls in flight fail Unavailable. */
  close(): void {
    this.fail();
  }

  private readonly onFrame = (body: Buffer) => {
    const frame = decodeFrame(body);
    if (frame.kind === REQUEST) throw new Error("the peer sent a request frame");
    const p = this.pending.get(frame.callId);
    // A reply to a call that timed out or was cancelled meanwhile: nobody waits for it.
    if (!p || !this.settle(frame.callId)) return;
    if (frame.kind === REPLY_OK) p.resolve(frame.message);
    else p.reject(errorOf(frame));
  };

  /** Forgets a call; false if it was already settled. */
  private settle(callId: number): boolean {
    const p = this.pending.get(callId);
    if (!p) return false;
    this.pending.delete(callId);
    if (p.timer) clearTimeout(p.timer);
    if (p.onAbort) p.signal.removeEventListener("abort", p.onAbort);
    if (this.pending.size === 0 && !this.dead) this.session.unref();
    return true;
  }

  /** Calls are waiting: the session keeps the process alive, and the peer's silence counts from now. */
  private waitBegins(): void {
    this.session.ref();
    this.heardAt = Date.now();
  }

  /** Sends a PING unless one is out; a peer that does not answer it in time is taken for gone. */
  private probe(): void {
    if (this.pinging || this.dead) return;
    this.pinging = true;
    const timer = setTimeout(() => this.fail(new Error(`the peer did not answer a PING within ${this.keepalive.timeoutMs} ms`)), this.keepalive.timeoutMs);
    timer.unref();
    try {
      this.session.ping((err) => {
        clearTimeout(timer);
        this.pinging = false;
        if (err) this.fail(err);
        else this.heardAt = Date.now();
      });
    } catch (e) {
      // Too many PINGs unanswered, or the session is closing: either way it is done.
      clearTimeout(timer);
      this.pinging = false;
      this.fail(e);
    }
  }

  private fail(cause?: unknown): void {
    this.closed = true;
    if (this.dead) return;
    this.dead = true;
    clearInterval(this.watch);
    const calls = [...this.pending.keys()];
    for (const id of calls) {
      const p = this.pending.get(id)!;
      this.settle(id);
      p.reject(this.unavailable(cause));
    }
    if (!this.session.destroyed) this.session.destroy();
  }

  private unavailable(cause?: unknown): ConnectError {
    return new ConnectError(`the frames stream to ${this.baseUrl} failed`, Code.Unavailable, undefined, undefined, cause);
  }
}

/** A service's error as it threw it: code, message, details (ErrorDetail above all) and metadata. */
function errorOf(f: ErrorFrame): ConnectError {
  const details = f.details.map(([type, value]) => ({ type, value, debug: undefined }));
  return new ConnectError(f.message, f.code as Code, f.metadata, details as unknown as ConstructorParameters<typeof ConnectError>[3]);
}
