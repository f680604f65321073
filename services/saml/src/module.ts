import type { ConnectRouter } from "@connectrpc/connect";
import { SamlService } from "../../../gen/iam/saml/v1/saml_pb.js";
import type { ServiceDeps, ServiceModule } from "../../kit/src/module.js";
import { checkHealth } from "../../kit/src/health.js";
import type { SamlConfig } from "./config.js";

/** The saml service; its RPCs arrive with their issue, Health answers readiness now. */
export async function buildSaml(deps: ServiceDeps, _config: SamlConfig): Promise<ServiceModule> {
  return {
    name: "saml",
    routes(router: ConnectRouter) {
      router.service(SamlService, { health: async () => ({ health: await checkHealth("saml", deps.store, deps.bus) }) });
    },
    async start() {},
    async stop() {},
  };
}
