import type { ConnectRouter } from "@connectrpc/connect";
import { FederationService } from "../../../gen/iam/federation/v1/federation_pb.js";
import type { ServiceDeps, ServiceModule } from "../../kit/src/module.js";
import { checkHealth } from "../../kit/src/health.js";
import type { FederationConfig } from "./config.js";

/** The federation service; its RPCs arrive with their issue, Health answers readiness now. */
export async function buildFederation(deps: ServiceDeps, _config: FederationConfig): Promise<ServiceModule> {
  return {
    name: "federation",
    routes(router: ConnectRouter) {
      router.service(FederationService, { health: async () => ({ health: await checkHealth("federation", deps.store, deps.bus) }) });
    },
    async start() {},
    async stop() {},
  };
}
