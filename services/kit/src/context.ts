import { AsyncLocalStorage } from "node:async_hooks";
import type { Logger } from "pino";

/** Who is calling, as established by the gateway's admin guard and passed on in RPC headers. */
export interface Actor {
  type: "api-key" | "admin" | "system";
  adminId?: string;
  username?: string;
  ipAddress?: string;
}

/** Per-request facts that flow gateway -> services (DESIGN 4, "Logging and metrics"). */
export interface RequestContext {
  requestId: string;
  logger: Logger;
  actor?: Actor;
}

/**
 * A RequestContext whose child logger is built on first use: a pino child() per request or RPC was
 * a measurable share of the token endpoint's in-process work, and most requests never log
 * (docs/performance.md). A class rather than an object literal with a getter: V8 builds such a
 * literal through a slow path, about 0.9 us each against tens of ns for an instance.
 */
export class LazyRequestContext implements RequestContext {
  private child: Logger | undefined;
  actor?: Actor;

  /** `rpc`: the method name the logger also carries (a service's context). */
  constructor(readonly requestId: string, private readonly root: Logger, private readonly rpc?: string, actor?: Actor) {
    if (actor) this.actor = actor;
  }

  get logger(): Logger {
    return (this.child ??= this.root.child(this.rpc === undefined ? { request_id: this.requestId } : { request_id: this.requestId, rpc: this.rpc }));
  }
}

const storage = new AsyncLocalStorage<RequestContext>();

export function runWithContext<T>(ctx: RequestContext, fn: () => T): T {
  return storage.run(ctx, fn);
}

export function currentContext(): RequestContext | undefined {
  return storage.getStore();
}

/** Header names used on internal RPCs. */
export const REQUEST_ID_HEADER = "x-request-id";
export const ACTOR_HEADER = "x-tessera-actor";

/** The current request id as a bus publish option, so events correlate with the request's logs. */
export function requestIdOption(): { requestId?: string } {
  const id = storage.getStore()?.requestId;
  return id ? { requestId: id } : {};
}
