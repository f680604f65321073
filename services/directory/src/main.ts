import { runServiceProcess } from "../../kit/src/runtime/serve-service.js";
import { loadDirectoryConfig } from "./config.js";
import { buildDirectory } from "./module.js";

// Cluster mode: this service as its own process (DESIGN 2).
await runServiceProcess("directory", loadDirectoryConfig, buildDirectory);
