import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DIST, ROOT } from "./support/process-runner.js";
import { adminApi, uniqueName } from "./support/http.js";
import { runProgram, type ProgramResult } from "../interop/support/run-program.js";
import { describeTier } from "../support/tier.js";

/**
 * The gRPC SDKs (sdk/, docs/sdks.md) as a first-party backend uses them: each language's README
 * example (sdk/<language>/examples) creates a realm on the cluster's directory service over gRPC
 * with the admin API key, reads it back and prints it; the gateway's Admin API then shows the same
 * realm. A wrong key and a taken name come back as the service's gRPC status and message.
 */
const CLUSTER = ["TESSERA_TEST_MONGODB_URI", "TESSERA_TEST_NATS_URL"] as const;

interface SdkProgram {
  language: string;
  tier: string;
  variables: readonly string[];
  /** Builds what the program needs (once); returns the command and its leading arguments. */
  prepare(): Promise<{ command: string; args: string[]; cwd: string }>;
  /** How the program is told where the directory is and which key to present. */
  env(directoryUrl: string, apiKey: string): Record<string, string>;
  /** Its stderr line for a failed call: how the language names a gRPC status code. */
  failure(code: "unauthenticated" | "already_exists", message: string, detail: string): string;
}

// The Go example's binary; made by the Go tier's prepare() only, so a skipped tier leaves nothing.
let goBuild: string | undefined;
afterAll(() => {
  if (goBuild) rmSync(goBuild, { recursive: true, force: true });
});

const PROGRAMS: SdkProgram[] = [
  {
    language: "TypeScript (Connect)", tier: "cluster tier", variables: CLUSTER,
    prepare: async () => ({ command: process.execPath, args: [join(DIST, "sdk/typescript-grpc/examples/create-realm.js")], cwd: ROOT }),
    env: (url, apiKey) => ({ TESSERA_DIRECTORY_URL: url, TESSERA_API_KEY: apiKey }),
    // Code[...] names, as @connectrpc/connect's enum spells them; the ErrorDetail when sent.
    failure: (code, message, detail) => `${code === "unauthenticated" ? "Unauthenticated" : "AlreadyExists"}: ${message}${detail}`,
  },
  {
    language: "Go (connect-go)", tier: "cluster tier, Go SDK", variables: [...CLUSTER, "TESSERA_TEST_SDK_GO"],
    async prepare() {
      const go = process.env.TESSERA_TEST_SDK_GO as string;
      goBuild = mkdtempSync(join(tmpdir(), "tessera-sdk-go-"));
      const bin = join(goBuild, "create-realm");
      const built = await runProgram(go, ["build", "-o", bin, "./examples/create-realm"], {
        cwd: join(ROOT, "sdk/go"), env: {}, logName: "sdk-go-build", timeoutMs: 240_000,
      });
      if (built.code !== 0) throw new Error(`go build exited ${built.code}\n${built.output}`);
      return { command: bin, args: [], cwd: join(ROOT, "sdk/go") };
    },
    env: (url, apiKey) => ({ TESSERA_DIRECTORY_URL: url, TESSERA_API_KEY: apiKey }),
    failure: (code, message, detail) => `${code}: ${message}${detail}`,
  },
  {
    language: "Python (grpcio)", tier: "cluster tier, Python SDK", variables: [...CLUSTER, "TESSERA_TEST_SDK_PYTHON"],
    prepare: async () => ({
      command: process.env.TESSERA_TEST_SDK_PYTHON as string, args: [join(ROOT, "sdk/python/examples/create_realm.py")], cwd: ROOT,
    }),
    // grpcio takes host:port; the checkout's package, not an installed copy that may be older.
    env: (url, apiKey) => ({ TESSERA_DIRECTORY_ADDRESS: new URL(url).host, TESSERA_API_KEY: apiKey, PYTHONPATH: join(ROOT, "sdk/python/src") }),
    // grpc.StatusCode names; reading the ErrorDetail takes grpcio-status, which the example leaves out.
    failure: (code, message) => `${code.toUpperCase()}: ${message}`,
  },
];

for (const program of PROGRAMS) {
  describeTier(program.tier, program.variables, () => {
    describe(`gRPC SDK, ${program.language}: the README example against the cluster's directory`, () => {
      let prepared: { command: string; args: string[]; cwd: string };
      const run = (name: string, apiKey: string): Promise<ProgramResult> =>
        runProgram(prepared.command, [...prepared.args, name], {
          cwd: prepared.cwd,
          env: program.env(process.env.TESSERA_TEST_CLUSTER_DIRECTORY_URL as string, apiKey),
          logName: `sdk-${program.language.split(" ")[0]!.toLowerCase()}`, timeoutMs: 60_000,
        });
      const apiKey = () => process.env.TESSERA_TEST_CLUSTER_API_KEY as string;

      beforeAll(async () => {
        prepared = await program.prepare();
      }, 240_000);

      it("creates a realm with the admin API key and reads it back; the Admin API shows the same realm", async () => {
        const name = uniqueName("sdk");
        const result = await run(name, apiKey());
        expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: "" });
        const printed = JSON.parse(result.stdout) as Record<string, unknown>;
        const displayName = `Created over gRPC (${program.language.split(" ")[0]})`;
        expect(printed).toEqual({ id: expect.any(String), name, displayName, enabled: true, accessTokenLifespan: 300 });

        const api = adminApi(process.env.TESSERA_TEST_CLUSTER_URL as string, apiKey());
        const res = await api.get(`/admin/realms/${name}`);
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ id: printed.id, name, displayName, enabled: true, accessTokenLifespan: 300 });
      });

      it("fails with UNAUTHENTICATED and the service's message when the key is wrong, and creates nothing", async () => {
        const name = uniqueName("sdk-anon");
        const result = await run(name, "tsk_not-the-key");
        expect({ code: result.code, stdout: result.stdout, stderr: result.stderr }).toEqual({
          code: 1, stdout: "",
          stderr: `${program.failure("unauthenticated", "this service needs a valid bearer credential (the admin API key)", " (reason service_credential_required)")}\n`,
        });
        const api = adminApi(process.env.TESSERA_TEST_CLUSTER_URL as string, apiKey());
        expect((await api.get(`/admin/realms/${name}`)).status).toBe(404);
      });

      it("fails with ALREADY_EXISTS, the message and the field when the realm's name is taken", async () => {
        const name = uniqueName("sdk-twice");
        expect((await run(name, apiKey())).code).toBe(0);
        const again = await run(name, apiKey());
        expect({ code: again.code, stdout: again.stdout, stderr: again.stderr }).toEqual({
          code: 1, stdout: "",
          stderr: `${program.failure("already_exists", `realm "${name}" already exists`, " (reason conflict, field name)")}\n`,
        });
      });
    });
  });
}
