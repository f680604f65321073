import { Code, ConnectError, createContextValues, type Interceptor, type Transport, type UnaryRequest, type UnaryResponse } from "@connectrpc/connect";
import { create, fromBinary, toBinary, type DescMessage, type DescMethodUnary, type MessageInitShape } from "@bufbuild/protobuf";
import { DEFAULT_MAX_FRAME_BYTES } from "./frame-codec.js";
import { FrameChannel, FramesNotServed, type Keepalive } from "./frame-channel.js";
import { applyInterceptors, CallRequest, keyOf, NEVER, unaryResponse } from "./unary-call.js";

export interface FrameTransportOptions {
  /** The peer's URL (TESSERA_<SERVICE>_URL); the frames stream uses its reserved path there. */
  baseUrl: string;
  /** The `authorization` header of each stream: checked once when the stream opens, not per call. */
  authorization?: string;
  /** Run around each call, as a Connect transport's would (transportFailures, contextPropagation). */
  interceptors?: Interceptor[];
  /** Connections (each with its own stream) opened to the peer and used in turn; default 1. */
  connections?: number;
  maxFrameBytes?: number;
  /** How a silent peer is found (frame-channel.ts); DEFAULT_KEEPALIVE when not given. */
  keepalive?: Keepalive;
  /**
   * The hop to use while the peer does not serve frames (it answered the stream 404: an older
   * release, during a rolling update). Built on first need; without it such calls fail Unavailable.
   */
  fallback?: () => Transport;
}

/** How long calls go by the fallback before frames are tried again (the peer may have been updated). */
const FALLBACK_MS = 30_000;

export interface FrameTransport extends Transport {
  /** Closes every connection; calls in flight fail Unavailable. The next call reconnects. */
  close(): void;
}

/**
 * The cluster mode's internal hop, client side: a Connect `Transport` (so generated clients and
 * every call site stay as they are) that sends unary calls as frames over long-lived HTTP/2
 * streams (frame-channel.ts) instead of one Connect request, one HTTP/2 stream, one linked
 * AbortController and one async body pipe per call. What it keeps of a call: the method, the
 * headers the interceptors set (request id, actor), the deadline (a timer, only when one is
 * given), the caller's signal (a listener, only when one is given), and the error a service threw,
 * with its code, message, details and metadata. Only unary RPCs exist in Tessera's protos.
 *
 * With `connections` > 1 calls go round-robin over that many connections, so that behind a
 * Kubernetes Service (which balances connections, not calls) one client reaches several replicas.
 */
export function createFrameTransport(opts: FrameTransportOptions): FrameTransport {
  const size = Math.max(1, opts.connections ?? 1);
  const maxFrameBytes = opts.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES;
  const channels: Array<FrameChannel | undefined> = new Array(size).fill(undefined);
  let turn = 0;
  const channel = (): FrameChannel => {
    const i = turn;
    turn = turn + 1 === size ? 0 : turn + 1;
    let c = channels[i];
    if (!c || c.closed) channels[i] = c = new FrameChannel(opts.baseUrl, opts.authorization, maxFrameBytes, opts.keepalive);
    return c;
  };

  let fallback: Transport | undefined;
  let fallbackUntil = 0;
  const viaFallback = (req: UnaryRequest): Promise<UnaryResponse> => {
    fallback ??= opts.fallback!();
    const r = req as unknown as Partial<CallRequest>;
    return (fallback.unary(req.method, req.signal === NEVER ? undefined : req.signal, r.timeoutMs, req.header, req.message as never, req.contextValues) as Promise<UnaryResponse>)
      .then(undefined, (e: unknown) => {
        // Connect's deadline aborted its own signal, not this call's: mark it here, as frames do,
        // so `transportFailures` keeps DeadlineExceeded.
        if (e instanceof ConnectError && e.code === Code.DeadlineExceeded && r.timeoutMs) (req as unknown as CallRequest).signal = AbortSignal.abort(e);
        throw e;
      });
  };

  const send = (req: UnaryRequest): Promise<UnaryResponse> => {
    if (fallbackUntil > 0) {
      if (Date.now() < fallbackUntil) return viaFallback(req);
      fallbackUntil = 0;
    }
    const method = req.method;
    let bytes: Uint8Array;
    try {
      bytes = toBinary(method.input, req.message);
    } catch (e) {
      return Promise.reject(ConnectError.from(e, Code.Internal));
    }
    const r = req as unknown as Partial<CallRequest>;
    const headers = typeof r.headerPairs === "function" ? r.headerPairs() : pairsOf(req.header);
    return channel().call(req as unknown as CallRequest, keyOf(method), headers, r.timeoutMs, bytes)
      .then((out) => unaryResponse(method, fromBinary(method.output, out)), (e: unknown) => {
        if (!opts.fallback || !((e as { cause?: unknown }).cause instanceof FramesNotServed)) throw e;
        fallbackUntil = Date.now() + FALLBACK_MS;
        return viaFallback(req);
      });
  };
  const call = applyInterceptors(send, opts.interceptors ?? []);
  const origin = new URL(opts.baseUrl).origin;

  return {
    unary<I extends DescMessage, O extends DescMessage>(
      method: DescMethodUnary<I, O>, signal: AbortSignal | undefined, timeoutMs: number | undefined,
      header: HeadersInit | undefined, input: MessageInitShape<I>, contextValues?: ReturnType<typeof createContextValues>,
    ): Promise<UnaryResponse<I, O>> {
      const req = new CallRequest(method, signal ?? NEVER, contextValues ?? createContextValues(), header, create(method.input, input), origin);
      req.timeoutMs = timeoutMs;
      return call(req as unknown as UnaryRequest) as unknown as Promise<UnaryResponse<I, O>>;
    },
    stream() {
      return Promise.reject(new ConnectError("streaming RPCs are not served on the internal hop", Code.Unimplemented));
    },
    close() {
      for (const c of channels) c?.close();
    },
  };
}

function pairsOf(headers: Headers): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  headers.forEach((value, name) => { out.push([name, value]); });
  return out;
}
