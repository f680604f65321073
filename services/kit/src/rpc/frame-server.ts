import http2 from "node:http2";
import type http from "node:http";
import type { Logger } from "pino";
import { Code, ConnectError, createContextValues, type ConnectRouter, type Interceptor, type UnaryRequest, type UnaryResponse } from "@connectrpc/connect";
import { create, fromBinary, toBinary, type DescMessage, type MessageInitShape } from "@bufbuild/protobuf";
import { DEFAULT_MAX_FRAME_BYTES, decodeFrame, encodeError, encodeOk, FrameReader, FrameTooLarge, REQUEST, type Bytes, type RequestFrame } from "./frame-codec.js";
import { FRAMES_CONTENT_TYPE, FRAMES_PATH } from "./frame-channel.js";
import { FrameWriter } from "./frame-writer.js";
import { serviceCredentialRefused } from "./service-auth.js";
import { applyInterceptors, CallRequest, handlerContext, isThenable, NEVER, recordMethods, unaryResponse, type MethodEntry, type UnaryFn } from "./unary-call.js";

export interface FrameServerOptions {
  routes: (router: ConnectRouter) => void;
  /** Run around every call, as the Connect router's are (serverInterceptor: error model, metrics, context). */
  interceptors: Interceptor[];
  /** Whether a stream's `authorization` header may call (service-auth.ts), asked once per stream. */
  credentialAccepted: (authorization: string | undefined) => boolean;
  logger: Logger;
  maxFrameBytes?: number;
}

type Request = http.IncomingMessage | http2.Http2ServerRequest;
type Response = http.ServerResponse | http2.Http2ServerResponse;

/**
 * The cluster mode's internal hop, server side (the client is frame-transport.ts): serves the
 * frames stream on the reserved path of the service's own port, beside Connect, gRPC and gRPC-web,
 * which first-party backends keep using. Each request frame runs the implementation the module's
 * routes registered, inside the same interceptors as a Connect call, so a call answers the same
 * either way; a stream whose credential was refused gets every call answered Unauthenticated (the
 * answer a Connect call without one gets, logged and counted the same).
 */
export class FrameServer {
  private readonly methods: Map<string, MethodEntry>;
  private readonly accepted: UnaryFn;
  private readonly refused: UnaryFn;
  private readonly streams = new Set<FrameStream>();
  private readonly maxFrameBytes: number;
  private draining = false;

  constructor(private readonly opts: FrameServerOptions) {
    this.methods = recordMethods(opts.routes);
    this.maxFrameBytes = opts.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES;
    // The credential check sits inside the interceptors, as on the Connect path.
    this.accepted = applyInterceptors(invoke, opts.interceptors);
    this.refused = applyInterceptors(() => Promise.reject(serviceCredentialRefused()), opts.interceptors);
  }

  /** Whether a request opens the frames stream; checked before Connect's adapter sees it. */
  handles(req: Request): boolean {
    return req.url === FRAMES_PATH && req.method === "POST";
  }

  accept(req: Request, res: Response): void {
    if (req.httpVersionMajor !== 2 || !("stream" in res)) {
      res.writeHead(505, { "content-type": "text/plain" });
      res.end("the frames stream needs HTTP/2");
      return;
    }
    const authorization = req.headers.authorization;
    const chain = this.opts.credentialAccepted(authorization) ? this.accepted : this.refused;
    const stream = new FrameStream(this, chain, req as http2.Http2ServerRequest, res.stream, this.maxFrameBytes, this.opts.logger);
    this.streams.add(stream);
    res.stream.once("close", () => this.streams.delete(stream));
    if (this.draining) stream.drain();
  }

  /** Shutting down: each stream ends once its client stopped sending and its calls are answered. */
  drain(): void {
    this.draining = true;
    for (const s of this.streams) s.drain();
  }

  method(key: string): MethodEntry | undefined {
    return this.methods.get(key);
  }
}

/** The innermost step: the implementation, its output completed to a message of the output type. */
function invoke(req: UnaryRequest): Promise<UnaryResponse> {
  const call = req as unknown as FrameRequest;
  const impl = call.entry.impl;
  const deadline = call.timeoutMs ? Date.now() + call.timeoutMs : undefined;
  const respond = (output: unknown) => unaryResponse(req.method, create(req.method.output, output as MessageInitShape<DescMessage>));
  try {
    const output = impl(req.message, handlerContext(req, "tessera-frames", deadline));
    return isThenable(output) ? Promise.resolve(output).then(respond) : Promise.resolve(respond(output));
  } catch (e) {
    return Promise.reject(e);
  }
}

/** A call's request, carrying the implementation through the interceptors to `invoke`. */
class FrameRequest extends CallRequest {
  constructor(readonly entry: MethodEntry, headers: Array<[string, string]>, input: unknown) {
    super(entry.method, NEVER, createContextValues(), headers, input, "tessera-frames:");
  }
}

/**
 * How long a draining service waits for a client to stop sending on its own (it does on the
 * GOAWAY) before it ends a stream anyway, once the stream's calls are answered.
 */
const DRAIN_GRACE_MS = 1000;

class FrameStream {
  private inflight = 0;
  private clientEnded = false;
  private graceOver = false;
  private readonly writer: FrameWriter;

  constructor(
    private readonly server: FrameServer, private readonly chain: UnaryFn, req: http2.Http2ServerRequest,
    private readonly stream: http2.ServerHttp2Stream, private readonly maxFrameBytes: number, private readonly logger: Logger,
  ) {
    stream.respond({ ":status": 200, "content-type": FRAMES_CONTENT_TYPE });
    // A reset by the client (its process died) is an ordinary end here; its calls are abandoned.
    stream.on("error", (e) => logger.debug({ err: e }, "frames stream reset"));
    this.writer = new FrameWriter(stream);
    const reader = new FrameReader(maxFrameBytes);
    // Read through the compatibility request: it consumes the stream's data, and left unread it
    // would pause the stream once its own buffer filled.
    req.on("data", (chunk: Buffer) => {
      try {
        reader.push(chunk, this.onFrame);
      } catch (e) {
        // Not this protocol, or a frame over the limit: the stream is dropped, and the client
        // fails its calls on it as Unavailable.
        logger.warn({ err: e }, "frames stream refused");
        stream.close(e instanceof FrameTooLarge ? http2.constants.NGHTTP2_FRAME_SIZE_ERROR : http2.constants.NGHTTP2_PROTOCOL_ERROR);
      }
    });
    req.on("end", () => {
      this.clientEnded = true;
      this.endIfDone();
    });
  }

  /**
   * Shutting down. The client, told by the GOAWAY, stops sending and half-closes the stream; the
   * stream ends once that happened and every call is answered, so no call sent before the client
   * saw the GOAWAY goes unanswered.
   */
  drain(): void {
    setTimeout(() => {
      this.graceOver = true;
      this.endIfDone();
    }, DRAIN_GRACE_MS).unref();
  }

  private endIfDone(): void {
    if (this.inflight === 0 && (this.clientEnded || this.graceOver)) this.writer.end();
  }

  private readonly onFrame = (body: Buffer) => {
    const frame = decodeFrame(body);
    if (frame.kind !== REQUEST) throw new Error("the client sent a reply frame");
    this.inflight++;
    this.call(frame).then((reply) => {
      this.writer.send(reply);
      this.inflight--;
      this.endIfDone();
    });
  };

  /** Always resolves: with the reply frame, or with an error frame. */
  private call(f: RequestFrame): Promise<Buffer> {
    const entry = this.server.method(f.key);
    if (!entry) return Promise.resolve(this.errorFrame(f.callId, new ConnectError(`${f.key} is not implemented`, Code.Unimplemented)));
    let input: unknown;
    try {
      input = fromBinary(entry.method.input, f.message);
    } catch {
      return Promise.resolve(this.errorFrame(f.callId, new ConnectError(`the request to ${f.key} does not parse`, Code.InvalidArgument)));
    }
    const req = new FrameRequest(entry, f.headers, input);
    if (f.timeoutMs > 0) req.timeoutMs = f.timeoutMs;
    return this.chain(req as unknown as UnaryRequest).then((res) => {
      try {
        return encodeOk(f.callId, toBinary(entry.method.output, res.message as never), this.maxFrameBytes);
      } catch (e) {
        this.logger.error({ err: e, method: f.key }, "reply not sent on the frames stream");
        return this.errorFrame(f.callId, new ConnectError("internal error", Code.Internal));
      }
    }, (e: unknown) => this.errorFrame(f.callId, e))
      // An error too large for a frame (a message of megabytes) must still answer the call.
      .catch(() => this.errorFrame(f.callId, new ConnectError("internal error", Code.Internal)));
  }

  /** A ConnectError as the client must see it again: code, raw message, details, metadata. */
  private errorFrame(callId: number, e: unknown): Buffer {
    const err = e instanceof ConnectError ? e : new ConnectError("internal error", Code.Internal);
    const details: Array<[string, Bytes]> = err.details.map((d) =>
      "desc" in d ? [d.desc.typeName, toBinary(d.desc, create(d.desc, d.value))] : [d.type, d.value]);
    const metadata: Array<[string, string]> = [];
    err.metadata.forEach((value, name) => { metadata.push([name, value]); });
    return encodeError(callId, err.code, err.rawMessage, details, metadata, this.maxFrameBytes);
  }
}
