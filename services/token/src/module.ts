import type { ConnectRouter } from "@connectrpc/connect";
import { TokenService } from "../../../gen/iam/token/v1/token_pb.js";
import type { ServiceDeps, ServiceModule } from "../../kit/src/module.js";
import { checkHealth } from "../../kit/src/health.js";
import type { TokenConfig } from "./config.js";

/** The token service; its RPCs arrive with their issue, Health answers readiness now. */
export async function buildToken(deps: ServiceDeps, _config: TokenConfig): Promise<ServiceModule> {
  return {
    name: "token",
    routes(router: ConnectRouter) {
      router.service(TokenService, { health: async () => ({ health: await checkHealth("token", deps.store, deps.bus) }) });
    },
    async start() {},
    async stop() {},
  };
}
