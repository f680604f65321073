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
      const req = new DirectRequest(method, signal ?? NEVER, contextValues ?? createContextValues(), header, freeze(create(method.input, input)));
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

// The call's objects are class instances, their headers built only if someone looks (in process
// the request context travels in AsyncLocalStorage, which serverInterceptor reads, not in headers;
// no handler or caller reads response headers today). Classes rather than object literals with
// getters: V8 builds such a literal through a slow path, about 0.9 us each, and a token request
// makes three per hop (issue 4, performance design).

class DirectRequest {
  readonly stream = false;
  readonly requestMethod = "POST";
  readonly service: DescService;
  private headers: Headers | undefined;

  constructor(
    readonly method: DescMethodUnary, readonly signal: AbortSignal, readonly contextValues: ReturnType<typeof createContextValues>,
    private readonly init: HeadersInit | undefined, readonly message: unknown,
  ) {
    this.service = method.parent;
  }

  get url(): string {
    return `in-process:/${this.method.parent.typeName}/${this.method.name}`;
  }

  get header(): Headers {
    return (this.headers ??= new Headers(this.init));
  }
}

class DirectResponse {
  readonly stream = false;
  readonly service: DescService;
  private headers: Headers | undefined;
  private trailers: Headers | undefined;

  constructor(readonly method: DescMethodUnary, readonly message: unknown) {
    this.service = method.parent;
  }

  get header(): Headers {
    return (this.headers ??= new Headers());
  }

  get trailer(): Headers {
    return (this.trailers ??= new Headers());
  }
}

class DirectHandlerContext {
  readonly protocolName = "in-process";
  readonly method: DescMethod;
  readonly service: DescService;
  readonly requestMethod: string;
  readonly signal: AbortSignal;
  readonly values: HandlerContext["values"];
  private headers: Headers | undefined;
  private trailers: Headers | undefined;

  constructor(private readonly req: UnaryRequest) {
    this.method = req.method;
    this.service = req.service;
    this.requestMethod = req.requestMethod;
    this.signal = req.signal;
    this.values = req.contextValues;
  }

  get url(): string {
    return this.req.url;
  }

  get requestHeader(): Headers {
    return this.req.header;
  }

  timeoutMs(): undefined {
    return undefined;
  }

  get responseHeader(): Headers {
    return (this.headers ??= new Headers());
  }

  get responseTrailer(): Headers {
    return (this.trailers ??= new Headers());
  }
}

function unaryResponse(method: DescMethodUnary, message: unknown): UnaryResponse {
  return new DirectResponse(method, message) as unknown as UnaryResponse;
}

function handlerContext(req: UnaryRequest): HandlerContext {
  return new DirectHandlerContext(req) as unknown as HandlerContext;
}
