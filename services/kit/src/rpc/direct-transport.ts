import { Code, ConnectError, createContextValues, type ConnectRouter, type Interceptor, type Transport, type UnaryRequest, type UnaryResponse } from "@connectrpc/connect";
import { create, type DescMessage, type DescMethodUnary, type MessageInitShape } from "@bufbuild/protobuf";
import { deepFreeze } from "../deep-freeze.js";
import { applyInterceptors, CallRequest, handlerContext, isThenable, keyOf, NEVER, recordMethods, unaryResponse } from "./unary-call.js";

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

/**
 * The embedded mode's in-memory hop (DESIGN 2): a Transport that calls a service module's
 * implementations directly, through the same server and client interceptors as a network hop (so
 * the error model, the request context and the RPC metrics are the same), but without encoding
 * messages or building HTTP requests.
 *
 * Why not Connect's `createRouterTransport`: for the token endpoint (docs/performance.md)
 * its generic machinery (binary encoding both ways, async-iterable pipes, an AbortController and a
 * DOMException per call) cost more than signing the token. Cluster mode keeps the real gRPC hop,
 * and its test tier keeps every message crossing the wire. Only unary RPCs exist in Tessera's protos.
 */
export function createDirectTransport(routes: (router: ConnectRouter) => void, opts: DirectTransportOptions = {}): Transport {
  const methods = recordMethods(routes);
  const freeze = opts.freezeMessages ? deepFreeze : <T>(m: T) => m;

  // Promise-chained rather than async, for the same reason as serverInterceptor: one promise per hop.
  const invoke = (req: UnaryRequest): Promise<UnaryResponse> => {
    const impl = methods.get(keyOf(req.method))?.impl;
    if (!impl) return Promise.reject(new ConnectError(`${req.method.parent.typeName}.${req.method.name} is not implemented`, Code.Unimplemented));
    const respond = (output: unknown) => unaryResponse(req.method, freeze(create(req.method.output, output as MessageInitShape<DescMessage>)));
    try {
      const output = impl(req.message, handlerContext(req, "in-process"));
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
      const req = new CallRequest(method, signal ?? NEVER, contextValues ?? createContextValues(), header, freeze(create(method.input, input)));
      return call(req as unknown as UnaryRequest) as unknown as Promise<UnaryResponse<I, O>>;
    },
    stream() {
      return Promise.reject(new ConnectError("streaming RPCs are not served in process", Code.Unimplemented));
    },
  };
}
