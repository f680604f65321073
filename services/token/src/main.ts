import { runServiceProcess } from "../../kit/src/runtime/serve-service.js";
import { loadTokenConfig } from "./config.js";
import { buildToken } from "./module.js";

// Cluster mode: this service as its own process (DESIGN 2).
await runServiceProcess("token", loadTokenConfig, buildToken);
