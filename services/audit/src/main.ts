import { runServiceProcess } from "../../kit/src/runtime/serve-service.js";
import { loadAuditConfig } from "./config.js";
import { buildAudit } from "./module.js";

// Cluster mode: this service as its own process (DESIGN 2).
await runServiceProcess("audit", loadAuditConfig, buildAudit);
