import { Code, ConnectError, createContextValues, type ConnectRouter, type HandlerContext, type Interceptor, type Transport, type UnaryRequest, type UnaryResponse } from "@connectrpc/connect";
import { create, type DescMessage, type DescMethod, type DescMethodUnary, type DescService, type MessageInitShape } from "@bufbuild/protobuf";
import type { UniversalHandler } from "@connectrpc/connect/protocol";
import { deepFreeze } from "../deep-freeze.js";

type UnaryImpl = (input: unknown, ctx: HandlerContext) => unknown;

export interface DirectTransportOptions {
  /** Run around the implementation, as a router's interceptors would (the error model, the request context). */
  serverInterceptors?: Interceptor[];
  /** Run around the whole call, as a client transport's interceptors would (context propagation). */
  clientInterceptors?: Interceptor[];
  /**
   * Deep-freeze every request and response message. Messages cross by reference here, so a caller
   * that mutated a response (or a handler that mutated its request or a response it cached) would
   * see a change that a serialized hop hides; frozen messages make such code throw in tests.
   */
  freezeMessages?: boolean;
}

/** A signal that never aborts: no handler reads it, and one per call was a measurable cost. */
const NEVER = new AbortController().signal;

/**
 * The embedded mode's in-memory hop (DESIGN 2): a Transport that calls a service module's
 * implementations directly, through the same server and client interceptors as a network hop (so
 * the error model, the request context and the RPC metrics are the same), but without encoding
 * messages or building HTTP requests.
 *
 * Why not Connect's `createRouterTransport`: for the token endpoint (issue 4, performance design)
 * its generic machinery (binary encoding both ways, async-iterable pipes, an AbortController and a
 * DOMException per call) cost more than signing the token. Cluster mode keeps the real gRPC hop,
 * and its test tier keeps every message crossing the wire. Only unary RPCs exist in Tessera's protos.
 */
export function createDirectTransport(routes: (router: ConnectRouter) => void, opts: DirectTransportOptions = {}): Transport {
  const impls = new Map<string, UnaryImpl>();
  const recorder: ConnectRouter = {
    handlers: [] as UniversalHandler[],
    service(service: DescService, implementation: Record<string, unknown>) {
      for (const method of service.methods) {
        const fn = implementation[method.localName];
        if (typeof fn === "function") impls.set(keyOf(method), (fn as UnaryImpl).bind(implementation));
      }
      return this;
    },
    rpc(method: DescMethod, impl: unknown) {
      impls.set(keyOf(method), impl as UnaryImpl);
      return this;
    },
  } as ConnectRouter;
  routes(recorder);
  const freeze = opts.freezeMessages ? deepFreeze : <T>(m: T) => m;

  // Promise-chained rather than async, for the same reason as serverInterceptor: one promise per hop.
  const invoke = (req: UnaryRequest): Promise<UnaryResponse> => {
    const impl = impls.get(keyOf(req.method));
    if (!impl) return Promise.reject(new ConnectError(`${req.method.parent.typeName}.${req.method.name} is not implemented`, Code.Unimplemented));
    const respond = (output: unknown) => unaryResponse(req.method, freeze(create(req.method.output, output as MessageInitShape<DescMessage>)));
    try {
      const output = impl(req.message, handlerContext(req));
      return isThenable(output) ? Promise.resolve(output).then(respond) : Promise.resolve(respond(output));
    } catch (e) {
      return Promise.reject(e);
    }
  };
  const serverSide = applyInterceptors(invoke, opts.serverInterceptors ?? []);
  const call = applyInterceptors(serverSide, opts.clientInterceptors ?? []);

  return {
    unary<I extends DescMessage, O extends DescMessage>(
      method: DescMethodUnary<I, O>, signal: AbortSignal | undefined, _timeoutMs: number | undefined,
      header: HeadersInit | undefined, input: MessageInitShape<I>, contextValues?: ReturnType<typeof createContextValues>,
    ): Promise<UnaryResponse<I, O>> {
      // Headers are built only if an interceptor looks: in process the request context travels
      // in AsyncLocalStorage (serverInterceptor reads it), not in headers.
      let headers: Headers | undefined;
      const req: UnaryRequest<I, O> = {
        stream: false, service: method.parent, method, requestMethod: "POST",
        url: `in-process:/${method.parent.typeName}/${method.name}`,
        signal: signal ?? NEVER, contextValues: contextValues ?? createContextValues(),
        get header() { return (headers ??= new Headers(header)); },
        message: freeze(create(method.input, input)),
      };
      return call(req as unknown as UnaryRequest) as unknown as Promise<UnaryResponse<I, O>>;
    },
    stream() {
      return Promise.reject(new ConnectError("streaming RPCs are not served in process", Code.Unimplemented));
    },
  };
}

type UnaryFn = (req: UnaryRequest) => Promise<UnaryResponse>;

/** Interceptors wrap outermost-first, as in Connect (the first listed sees the call first). */
function applyInterceptors(next: UnaryFn, interceptors: Interceptor[]): UnaryFn {
  return interceptors.reduceRight((n, i) => i(n as never) as unknown as UnaryFn, next);
}

function isThenable(v: unknown): v is PromiseLike<unknown> {
  return typeof (v as PromiseLike<unknown> | null)?.then === "function";
}

function keyOf(method: DescMethod): string {
  return `${method.parent.typeName}/${method.name}`;
}

/** Response headers and trailers are built only if someone looks: no handler or caller does today. */
function unaryResponse(method: DescMethodUnary, message: unknown): UnaryResponse {
  let header: Headers | undefined;
  let trailer: Headers | undefined;
  return {
    stream: false, service: method.parent, method, message: message as never,
    get header() { return (header ??= new Headers()); },
    get trailer() { return (trailer ??= new Headers()); },
  };
}

function handlerContext(req: UnaryRequest): HandlerContext {
  let responseHeader: Headers | undefined;
  let responseTrailer: Headers | undefined;
  const ctx: HandlerContext = {
    method: req.method, service: req.service, requestMethod: req.requestMethod, url: req.url,
    protocolName: "in-process", signal: req.signal, requestHeader: req.header, values: req.contextValues,
    timeoutMs: () => undefined,
    get responseHeader() { return (responseHeader ??= new Headers()); },
    get responseTrailer() { return (responseTrailer ??= new Headers()); },
  };
  return ctx;
}
