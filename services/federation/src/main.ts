import { runServiceProcess } from "../../kit/src/runtime/serve-service.js";
import { loadFederationConfig } from "./config.js";
import { buildFederation } from "./module.js";

// Cluster mode: this service as its own process (DESIGN 2).
await runServiceProcess("federation", loadFederationConfig, buildFederation);
