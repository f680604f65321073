import type { ConnectRouter } from "@connectrpc/connect";
import { AuditService } from "../../../gen/iam/audit/v1/audit_pb.js";
import { WebhookService } from "../../../gen/iam/audit/v1/webhook_pb.js";
import { RealmTransferService } from "../../../gen/iam/kit/v1/realm_transfer_pb.js";
import type { ServiceDeps, ServiceModule } from "../../kit/src/module.js";
import type { Subscription } from "../../kit/src/bus/port.js";
import { Outbox } from "../../kit/src/bus/outbox.js";
import type { AuditConfig } from "./config.js";
import { AdminEventRepository } from "./store/admin-event-repository.js";
import { LoginEventRepository } from "./store/login-event-repository.js";
import { WebhookRepository } from "./store/webhook-repository.js";
import { DeliveryRepository } from "./store/delivery-repository.js";
import { RealmLookup } from "./domain/realm-ref.js";
import { WebhookAdmin } from "./domain/webhook-admin.js";
import { RangeReplay } from "./domain/range-replay.js";
import { WebhookTransfer } from "./domain/webhook-transfer.js";
import { Dispatcher } from "./delivery/dispatcher.js";
import { startAuditConsumers } from "./events/consumers.js";
import { startWebhookFanout } from "./events/webhook-fanout.js";
import { PluginEventFanout } from "./events/plugin-listeners.js";
import { auditRpc } from "./rpc/audit-rpc.js";
import { webhookRpc } from "./rpc/webhook-rpc.js";
import { lazyService } from "../../kit/src/rpc/lazy-service.js";

/**
 * Composition of the audit service: the login and admin events it stores, and the webhooks that
 * receive them (its own consumers of the same subjects, and a dispatcher sending from its store).
 */
export async function buildAudit(deps: ServiceDeps, config: AuditConfig): Promise<ServiceModule> {
  const { store, bus, clock, logger } = deps;
  const adminEvents = await AdminEventRepository.open(store);
  const loginEvents = await LoginEventRepository.open(store);
  const hooks = await WebhookRepository.open(store);
  const deliveries = await DeliveryRepository.open(store);
  // Webhook writes stage their admin events through it (kit events/audited-write.ts).
  const outbox = await Outbox.open(store, bus, clock, logger, { soleProcess: deps.soleProcess ?? false });
  const dispatcher = new Dispatcher(deliveries, hooks, deps.secrets, clock, logger.child({ part: "webhooks" }), deps.metrics, config.webhooks);
  const queued = () => dispatcher.nudge();
  const realms = new RealmLookup(deps.transports.directory);
  const admin = new WebhookAdmin(hooks, deliveries, realms, outbox, deps.secrets, clock, config.webhooks.outbound, queued);
  const transfer = new WebhookTransfer(hooks, deps.secrets, config.webhooks.outbound, () => clock.now());
  const ranges = new RangeReplay(adminEvents, loginEvents, deliveries, clock, queued);
  const listeners = deps.plugins ? new PluginEventFanout(deps.plugins, logger.child({ part: "plugins" }), deps.metrics) : undefined;
  let subs: Subscription[] = [];
  return {
    name: "audit",
    routes(router: ConnectRouter) {
      router.service(AuditService, auditRpc(adminEvents, loginEvents, store, bus));
      router.service(WebhookService, webhookRpc(admin, ranges));
      // Realm export and import (and zod's schemas) load at their first call: a faster cold start.
      router.service(RealmTransferService, lazyService(RealmTransferService, async () =>
        (await import("./rpc/realm-transfer-rpc.js")).realmTransferRpc(realms, transfer)));
    },
    async start() {
      subs = [
        ...(await startAuditConsumers(bus, adminEvents, loginEvents, logger, deps.metrics, listeners)),
        ...(await startWebhookFanout(bus, hooks, deliveries, clock, logger, queued)),
      ];
      await outbox.start();
      await dispatcher.start(deps.soleProcess ?? false);
    },
    async stop() {
      await Promise.all(subs.map((s) => s.stop()));
      // Events already stored still reach the listeners, for as long as one plugin call may take.
      if (listeners && deps.plugins) await listeners.idle(deps.plugins.calls.timeoutMs);
      await dispatcher.stop();
      await outbox.stop();
    },
  };
}
