import { lazyImport } from "../../../kit/src/runtime/lazy-import.js";
import type { SsoFlow } from "./sso-flow.js";
import type { SloFlow } from "./slo-flow.js";

// The flows bring the XML stack (xmldom, xml-crypto, the schema validator): about 50 modules that
// only SAML messages need. Imported when the first one arrives, not at start (faster cold start).
// One after the other: Jest's ESM loader fails two concurrent imports sharing dependencies.
const flowModules = lazyImport(async () => [await import("./sso-flow.js"), await import("./slo-flow.js")] as const);

export interface SamlFlows {
  sso: SsoFlow;
  slo: SloFlow;
}

/** The SSO and SLO flows of one saml service, built on first use from the same collaborators. */
export function lazyFlows(...deps: ConstructorParameters<typeof SsoFlow>): () => Promise<SamlFlows> {
  let flows: SamlFlows | undefined;
  return async () => {
    if (!flows) {
      const [{ SsoFlow: Sso }, { SloFlow: Slo }] = await flowModules();
      flows ??= { sso: new Sso(...deps), slo: new Slo(...deps) };
    }
    return flows;
  };
}
