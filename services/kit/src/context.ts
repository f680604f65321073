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
