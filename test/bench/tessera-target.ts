import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { randomBytes } from "node:crypto";
import { freePort } from "../e2e/support/free-port.js";
import { DIST } from "../e2e/support/process-runner.js";
import { adminApi } from "../e2e/support/http.js";
import { startPinned, type Server } from "./bench-kit.js";

/** A Tessera under load, embedded or cluster, with a realm, a client allowed every grant, and a user. */
export interface TesseraBench {
  /** The target column of the results table. */
  label: string;
  baseUrl: string;
  issuer: string;
  realm: string;
  clientId: string;
  clientSecret: string;
  username: string;
  password: string;
  /** The server process when there is one (embedded): the login rows break its CPU down by thread. */
  pid?: number;
  /** The store server's processes (cluster runs on a local MongoDB-wire server): their CPU per request is reported. */
  storePids?: number[];
  stop(): Promise<void>;
}

/** The embedded server, whose single process the memory scenario inspects. */
export interface EmbeddedBench extends TesseraBench {
  server: Server;
  /** Its Admin API key (the LDAP sync scenario configures a provider). */
  apiKey: string;
}

/** Starts a Tessera for a scenario; `cheapHashing` for the context rows that take argon2 out. */
export type StartTessera = (cheapHashing: boolean) => Promise<TesseraBench>;

/** argon2id at m=1 MiB, t=1: to create many sessions quickly, or to see a flow's cost besides hashing. */
export const CHEAP_HASHING = { TESSERA_ARGON2_MEMORY_KIB: "1024", TESSERA_ARGON2_ITERATIONS: "1" };

/**
 * Node flags for a profiling script's server: `--cpu-prof` into /tmp/prof when `prof`, plus any in
 * SERVER_NODE_ARGS (e.g. --perf-basic-prof, for `perf record -p <pid>` with JavaScript names).
 */
export function profilingNodeArgs(prof: boolean): string[] {
  return [...(prof ? ["--cpu-prof", "--cpu-prof-dir=/tmp/prof"] : []), ...(process.env.SERVER_NODE_ARGS?.split(" ").filter(Boolean) ?? [])];
}

/**
 * Tessera in embedded mode, pinned to the server core, at production argon2 parameters unless
 * `cheapHashing`, with a realm, a confidential client allowed every grant, and a user.
 */
export async function startTessera(opts: { alg: "RS256" | "ES256"; cheapHashing?: boolean; nodeArgs?: string[]; cwd?: string; dist?: string }): Promise<EmbeddedBench> {
  const port = await freePort();
  const apiKey = `bench-${randomBytes(8).toString("hex")}`;
  // `dist`: another build's output directory (a baseline checkout), else this one's.
  const entry = opts.dist ? relative(DIST, join(opts.dist, "gateway/src/main-embedded.js")) : "gateway/src/main-embedded.js";
  const server = await startPinned("tessera", entry, [], {
    TESSERA_PORT: String(port),
    TESSERA_HOST: "127.0.0.1",
    TESSERA_DATA_DIR: mkdtempSync(join(tmpdir(), "tessera-bench-")),
    TESSERA_ADMIN_API_KEY: apiKey,
    TESSERA_LOG_LEVEL: "warn",
    ...(opts.cheapHashing ? CHEAP_HASHING : {}),
  }, `http://localhost:${port}/health/ready`, opts.nodeArgs ?? [], opts.cwd);
  try {
    return {
      ...await provision(server.url, apiKey, opts.alg), label: "Tessera (embedded)", server, apiKey,
      // The taskset child execs node, so its pid is the server's.
      ...(server.child.pid !== undefined ? { pid: server.child.pid } : {}),
      stop: () => server.stop(),
    };
  } catch (e) {
    await server.stop();
    throw e;
  }
}

/** The realm, client and user every scenario uses, created over the Admin API of `baseUrl`. */
export async function provision(baseUrl: string, apiKey: string, alg: "RS256" | "ES256"): Promise<Omit<TesseraBench, "label" | "stop">> {
  const api = adminApi(baseUrl, apiKey);
  const realm = "bench";
  const must = (status: number, what: string) => { if (status >= 300) throw new Error(`${what}: HTTP ${status}`); };
  must((await api.post("/admin/realms", { name: realm, accessTokenLifespan: 300 })).status, "create realm");
  if (alg === "ES256") must((await api.post(`/admin/realms/${realm}/keys/rotate`, { alg: "ES256" })).status, "rotate to ES256");
  const client = await api.post(`/admin/realms/${realm}/clients`, {
    clientId: "bench-client",
    redirectUris: ["http://127.0.0.1:9/cb"],
    grantTypes: ["client_credentials", "password", "refresh_token", "authorization_code"],
  });
  must(client.status, "create client");
  const password = "Bench-password-1";
  must((await api.post(`/admin/realms/${realm}/users`, { username: "bench-user", email: "bench@example.test", password })).status, "create user");
  return {
    baseUrl,
    issuer: `${baseUrl}/realms/${realm}`,
    realm,
    clientId: "bench-client",
    clientSecret: client.body.secret as string,
    username: "bench-user",
    password,
  };
}
