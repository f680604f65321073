import type { ConnectRouter } from "@connectrpc/connect";
import { AuditService } from "../../../gen/iam/audit/v1/audit_pb.js";
import type { ServiceDeps, ServiceModule } from "../../kit/src/module.js";
import type { Subscription } from "../../kit/src/bus/port.js";
import type { AuditConfig } from "./config.js";
import { AdminEventRepository } from "./store/admin-event-repository.js";
import { LoginEventRepository } from "./store/login-event-repository.js";
import { startAuditConsumers } from "./events/consumers.js";
import { auditRpc } from "./rpc/audit-rpc.js";

export async function buildAudit(deps: ServiceDeps, _config: AuditConfig): Promise<ServiceModule> {
  const adminEvents = await AdminEventRepository.open(deps.store);
  const loginEvents = await LoginEventRepository.open(deps.store);
  let subs: Subscription[] = [];
  return {
    name: "audit",
    routes(router: ConnectRouter) {
      router.service(AuditService, auditRpc(adminEvents, loginEvents, deps.store, deps.bus));
    },
    async start() {
      subs = await startAuditConsumers(deps.bus, adminEvents, loginEvents, deps.logger, deps.metrics);
    },
    async stop() {
      await Promise.all(subs.map((s) => s.stop()));
    },
  };
}
