import { runServiceProcess } from "../../kit/src/runtime/serve-service.js";
import { loadSamlConfig } from "./config.js";
import { buildSaml } from "./module.js";

// Cluster mode: this service as its own process (DESIGN 2).
await runServiceProcess("saml", loadSamlConfig, buildSaml);
