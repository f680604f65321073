import type { Counter } from "prom-client";
import type { Logger } from "pino";
import type { Metrics } from "../../../kit/src/metrics.js";
import type { AdminEventView, EventListener, LoginEventView } from "../../../kit/src/plugins/plugin-api.js";
import type { PluginRegistry } from "../../../kit/src/plugins/plugin-registry.js";
import type { AdminEventRecord } from "../store/admin-event-repository.js";
import type { LoginEventRecord } from "../store/login-event-repository.js";

/**
 * Events a listener may have waiting before newer ones are dropped: a listener stuck at its
 * timeout on every event must not make this process hold the whole event stream in memory.
 */
export const MAX_QUEUED_EVENTS = 1000;

interface Queue {
  pluginId: string;
  listener: EventListener;
  tail: Promise<void>;
  waiting: number;
}

/**
 * Hands each event the audit service has just stored to the plugins' event listeners
 * (docs/plugins.md): a copy per listener, in order per listener, each call under the plugin
 * timeout (PluginCalls). Storage never waits for a listener: the consumer enqueues and moves on,
 * so a slow or failing listener delays nothing but itself.
 */
export class PluginEventFanout {
  private readonly queues: Queue[];
  private readonly dropped: Counter<string> | undefined;

  constructor(private readonly plugins: PluginRegistry, private readonly logger: Logger, metrics?: Metrics) {
    this.queues = plugins.listeners().map(({ pluginId, listener }) => ({ pluginId, listener, tail: Promise.resolve(), waiting: 0 }));
    this.dropped = this.queues.length
      ? metrics?.counter("tessera_plugin_events_dropped_total", "Events not handed to a plugin listener whose queue was full", ["plugin"])
      : undefined;
  }

  login(record: LoginEventRecord): void {
    const view: LoginEventView = {
      id: record._id, time: record.time, realm: record.realm, type: record.type, clientId: record.clientId, userId: record.userId,
      sessionId: record.sessionId, ipAddress: record.ipAddress, error: record.error, details: { ...record.details },
    };
    this.enqueue((l) => l.onLoginEvent?.bind(l), view);
  }

  admin(record: AdminEventRecord): void {
    const view: AdminEventView = {
      id: record._id, time: record.time, realm: record.realm, operationType: record.operationType,
      resourceType: record.resourceType, resourcePath: record.resourcePath,
      authDetails: { type: record.authType, adminId: record.authAdminId, username: record.authUsername, ipAddress: record.authIpAddress },
      representation: record.representation,
    };
    this.enqueue((l) => l.onAdminEvent?.bind(l), view);
  }

  /**
   * Resolves once every event enqueued so far has been handed over (for stop and tests), or after
   * `limitMs` when given: a stopping process waits that long at most.
   */
  async idle(limitMs?: number): Promise<void> {
    const all = Promise.all(this.queues.map((q) => q.tail));
    if (limitMs === undefined) {
      await all;
      return;
    }
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([all, new Promise((r) => { timer = setTimeout(r, limitMs); })]);
    clearTimeout(timer);
  }

  private enqueue<E>(handler: (l: EventListener) => ((e: E) => void | Promise<void>) | undefined, event: E): void {
    for (const q of this.queues) {
      const fn = handler(q.listener);
      if (!fn) continue;
      if (q.waiting >= MAX_QUEUED_EVENTS) {
        this.dropped?.inc({ plugin: q.pluginId });
        this.logger.warn({ plugin: q.pluginId }, "plugin listener queue full; event not handed over");
        continue;
      }
      q.waiting++;
      const copy = structuredClone(event);
      // calls.run never rejects: a failure is logged and counted there.
      q.tail = q.tail.then(() => this.plugins.calls.run(q.pluginId, "event-listener", () => fn(copy))).then(() => { q.waiting--; });
    }
  }
}
