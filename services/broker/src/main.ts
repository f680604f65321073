import { runServiceProcess } from "../../kit/src/runtime/serve-service.js";
import { loadBrokerConfig } from "./config.js";
import { buildBroker } from "./module.js";

// Cluster mode: this service as its own process (DESIGN 2).
await runServiceProcess("broker", loadBrokerConfig, buildBroker);
