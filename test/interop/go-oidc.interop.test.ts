import { join } from "node:path";
import { startEmbeddedServer, type TestServer } from "../e2e/support/embedded-server.js";
import { ROOT } from "../e2e/support/process-runner.js";
import { provisionInteropRealm, type InteropRealm } from "./support/interop-realm.js";
import { expectPassed, runProgram } from "./support/run-program.js";

/**
 * Interop tier, Go: github.com/coreos/go-oidc/v3 and golang.org/x/oauth2, as a Go app written for
 * Keycloak uses them, drive an embedded Tessera (test/interop/go: discovery with the strict issuer
 * check, the code flow with PKCE S256 and a nonce through the hosted login page, ID token and
 * at_hash verification, userinfo, refresh, client_credentials, the device flow approved and
 * denied, and the libraries' typed errors). Runs when TESSERA_TEST_INTEROP_GO names the go
 * command (.ci/run sets it after `go mod download`).
 */
const GO = process.env.TESSERA_TEST_INTEROP_GO;

if (!GO) {
  describe("go-oidc relying party (interop tier)", () => {
    it("did not run: TESSERA_TEST_INTEROP_GO is not set", () => {
      expect(GO).toBeUndefined();
    });
  });
} else {
  describe("go-oidc relying party (interop tier)", () => {
    let server: TestServer;
    let realm: InteropRealm;

    beforeAll(async () => {
      server = await startEmbeddedServer("interop-go");
      realm = await provisionInteropRealm(server, "interop-go");
    }, 120_000);
    afterAll(async () => server?.stop());

    it("passes go test in test/interop/go against the realm", async () => {
      // -count=1: never a cached result, whatever the environment looks like to go's test cache.
      const result = await runProgram(GO, ["test", "-count=1", "-v", "."], {
        cwd: join(ROOT, "test", "interop", "go"), env: realm.env, logName: "interop-go", timeoutMs: 240_000,
      });
      const passed = [...result.output.matchAll(/^\s*--- PASS: (\S+)/gm)].map((m) => m[1]!);
      expectPassed("go test", result, passed, [
        "TestDiscovery", "TestAuthorizationCodeFlow", "TestClientCredentials",
        "TestDeviceFlow", "TestDeviceFlow/approved", "TestDeviceFlow/denied",
      ]);
    }, 300_000);
  });
}
