import type { ConnectRouter } from "@connectrpc/connect";
import { BrokerService } from "../../../gen/iam/broker/v1/broker_pb.js";
import type { ServiceDeps, ServiceModule } from "../../kit/src/module.js";
import { checkHealth } from "../../kit/src/health.js";
import type { BrokerConfig } from "./config.js";

/** The broker service; its RPCs arrive with their issue, Health answers readiness now. */
export async function buildBroker(deps: ServiceDeps, _config: BrokerConfig): Promise<ServiceModule> {
  return {
    name: "broker",
    routes(router: ConnectRouter) {
      router.service(BrokerService, { health: async () => ({ health: await checkHealth("broker", deps.store, deps.bus) }) });
    },
    async start() {},
    async stop() {},
  };
}
