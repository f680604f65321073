import { freePort } from "../e2e/support/free-port.js";
import { startPinned } from "./bench-kit.js";
import { CHEAP_HASHING, type StartTessera } from "./tessera-target.js";

/** The realm, client and user code-flow-ceiling-server.ts serves (it reads them from here). */
export const CEILING_CLIENT = { clientId: "bench-client", clientSecret: "bench-ceiling-secret", username: "bench-user", password: "Bench-password-1" };

/**
 * The code-flow ceiling on the server core, at the realm's argon2id parameters or the cheap ones;
 * `durable` keeps the flow's state in Tessera's SQLite store rather than in memory.
 */
function ceiling(durable: boolean): StartTessera {
  return async (cheapHashing) => {
    const port = await freePort();
    const [memory, iterations] = cheapHashing ? [CHEAP_HASHING.TESSERA_ARGON2_MEMORY_KIB, CHEAP_HASHING.TESSERA_ARGON2_ITERATIONS] : ["19456", "2"];
    const base = `http://127.0.0.1:${port}`;
    const server = await startPinned("code-flow ceiling", "test/bench/code-flow-ceiling-server.js",
      [String(port), memory, iterations, ...(durable ? ["durable"] : [])], {}, `${base}/realms/bench/protocol/openid-connect/certs`);
    return {
      label: durable
        ? "bare node:http, argon2id + 2 RS256 signatures, state in Tessera's SQLite store (durable ceiling)"
        : "bare node:http, argon2id + 2 RS256 signatures in memory (ceiling)",
      baseUrl: base, issuer: `${base}/realms/bench`, realm: "bench", ...CEILING_CLIENT,
      ...(server.child.pid !== undefined ? { pid: server.child.pid } : {}),
      stop: () => server.stop(),
    };
  };
}

export const codeFlowCeiling = ceiling(false);
export const durableCodeFlowCeiling = ceiling(true);
