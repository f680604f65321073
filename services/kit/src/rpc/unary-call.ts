import type { ConnectRouter, HandlerContext, Interceptor, UnaryRequest, UnaryResponse, createContextValues } from "@connectrpc/connect";
import type { DescMethod, DescMethodUnary, DescService } from "@bufbuild/protobuf";
import type { UniversalHandler } from "@connectrpc/connect/protocol";

/**
 * The pieces of a unary call shared by Tessera's own transports (direct-transport.ts in process,
 * frame-transport.ts / frame-server.ts between processes): a method table recorded from a
 * module's routes, interceptor chaining as Connect does it, and cheap request, response and
 * handler-context objects that satisfy the interceptors without Connect's per-call machinery.
 */

export type UnaryImpl = (input: unknown, ctx: HandlerContext) => unknown;
export type UnaryFn = (req: UnaryRequest) => Promise<UnaryResponse>;
export interface MethodEntry { method: DescMethodUnary; impl: UnaryImpl }

/** A signal that never aborts: no handler reads it, and one per call was a measurable cost. */
export const NEVER = new AbortController().signal;

/** `typeName/name`: the key a method is found by, on both ends of a hop. */
export function keyOf(method: DescMethod): string {
  return `${method.parent.typeName}/${method.name}`;
}

/** Runs a module's `routes` against a recorder and returns its unary methods by key. */
export function recordMethods(routes: (router: ConnectRouter) => void): Map<string, MethodEntry> {
  const methods = new Map<string, MethodEntry>();
  const recorder: ConnectRouter = {
    handlers: [] as UniversalHandler[],
    service(service: DescService, implementation: Record<string, unknown>) {
      for (const method of service.methods) {
        const fn = implementation[method.localName];
        if (typeof fn === "function" && method.methodKind === "unary") methods.set(keyOf(method), { method: method as DescMethodUnary, impl: (fn as UnaryImpl).bind(implementation) });
      }
      return this;
    },
    rpc(method: DescMethod, impl: unknown) {
      if (method.methodKind === "unary") methods.set(keyOf(method), { method: method as DescMethodUnary, impl: impl as UnaryImpl });
      return this;
    },
  } as ConnectRouter;
  routes(recorder);
  return methods;
}

/** Interceptors wrap outermost-first, as in Connect (the first listed sees the call first). */
export function applyInterceptors(next: UnaryFn, interceptors: Interceptor[]): UnaryFn {
  return interceptors.reduceRight((n, i) => i(n as never) as unknown as UnaryFn, next);
}

export function isThenable(v: unknown): v is PromiseLike<unknown> {
  return typeof (v as PromiseLike<unknown> | null)?.then === "function";
}

// The call's objects are class instances, their headers built only if someone looks. Classes
// rather than object literals with getters: V8 builds such a literal through a slow path, about
// 0.9 us each, and a token request makes three per hop (performance design, the token endpoint).

export class CallRequest {
  readonly stream = false;
  readonly requestMethod = "POST";
  readonly service: DescService;
  /** The caller's deadline, for a transport that sends it on. */
  timeoutMs: number | undefined;
  private headers: Headers | undefined;

  constructor(
    readonly method: DescMethodUnary,
    /** Mutable: a transport whose deadline passed swaps in an aborted signal, as Connect's does. */
    public signal: AbortSignal,
    readonly contextValues: ReturnType<typeof createContextValues>,
    private readonly init: HeadersInit | undefined,
    readonly message: unknown,
    private readonly origin = "in-process:",
  ) {
    this.service = method.parent;
  }

  get url(): string {
    return `${this.origin}/${this.method.parent.typeName}/${this.method.name}`;
  }

  get header(): Headers {
    return (this.headers ??= new Headers(this.init));
  }

  /** The headers as name/value pairs, without building a Headers object nobody touched. */
  headerPairs(): Array<[string, string]> {
    if (!this.headers && !this.init) return [];
    const pairs: Array<[string, string]> = [];
    (this.headers ?? new Headers(this.init)).forEach((value, name) => { pairs.push([name, value]); });
    return pairs;
  }
}

export class CallResponse {
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

export class CallHandlerContext {
  readonly method: DescMethod;
  readonly service: DescService;
  readonly requestMethod: string;
  readonly signal: AbortSignal;
  readonly values: HandlerContext["values"];
  private headers: Headers | undefined;
  private trailers: Headers | undefined;

  constructor(private readonly req: UnaryRequest, readonly protocolName: string, private readonly deadline?: number) {
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

  /** What is left of the caller's deadline, as Connect's handler context reports it. */
  timeoutMs(): number | undefined {
    return this.deadline === undefined ? undefined : this.deadline - Date.now();
  }

  get responseHeader(): Headers {
    return (this.headers ??= new Headers());
  }

  get responseTrailer(): Headers {
    return (this.trailers ??= new Headers());
  }
}

export function unaryResponse(method: DescMethodUnary, message: unknown): UnaryResponse {
  return new CallResponse(method, message) as unknown as UnaryResponse;
}

export function handlerContext(req: UnaryRequest, protocolName: string, deadline?: number): HandlerContext {
  return new CallHandlerContext(req, protocolName, deadline) as unknown as HandlerContext;
}
