import { join } from "node:path";
import { ROOT } from "../e2e/support/process-runner.js";
import { describeInteropTier } from "./support/interop-tier.js";
import { expectPassed, runProgram } from "./support/run-program.js";

/**
 * Interop tier, Go: github.com/coreos/go-oidc/v3 and golang.org/x/oauth2, as a Go app written for
 * Keycloak uses them, drive an embedded Tessera (test/interop/go: discovery with the strict issuer
 * check, the code flow with PKCE S256 and a nonce through the hosted login page, ID token and
 * at_hash verification, userinfo, refresh, client_credentials, the device flow approved and
 * denied, and the libraries' typed errors; private_key_jwt assertions signed with go-jose and sent
 * through x/oauth2's extra parameters, a replayed one and a wrong audience refused, and a pushed
 * authorization request, RFC 9126, posted with net/http). Runs when TESSERA_TEST_INTEROP_GO names the go
 * command (.ci/run sets it after `go mod download`).
 */
describeInteropTier({
  title: "go-oidc relying party (interop tier)", variable: "TESSERA_TEST_INTEROP_GO", name: "interop-go",
  it: "passes go test in test/interop/go against the realm",
  async run(go, realm) {
    // -count=1: never a cached result, whatever the environment looks like to go's test cache.
    const result = await runProgram(go, ["test", "-count=1", "-v", "."], {
      cwd: join(ROOT, "test", "interop", "go"), env: realm.env, logName: "interop-go", timeoutMs: 240_000,
    });
    const passed = [...result.output.matchAll(/^\s*--- PASS: (\S+)/gm)].map((m) => m[1]!);
    expectPassed("go test", result, passed, [
      "TestDiscovery", "TestAuthorizationCodeFlow", "TestClientCredentials",
      "TestDeviceFlow", "TestDeviceFlow/approved", "TestDeviceFlow/denied",
      "TestPrivateKeyJWTClientCredentials", "TestPushedAuthorizationWithPrivateKeyJWT",
    ]);
  },
});
