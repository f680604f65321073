import { join } from "node:path";
import { startEmbeddedServer, type TestServer } from "../e2e/support/embedded-server.js";
import { ROOT } from "../e2e/support/process-runner.js";
import { provisionInteropRealm, type InteropRealm } from "./support/interop-realm.js";
import { expectPassed, runProgram } from "./support/run-program.js";

/**
 * Interop tier, Python: authlib's OAuth2Session (requests) and its OpenID Connect ID token
 * validation, as a Python app written for Keycloak uses them, drive an embedded Tessera
 * (test/interop/python: discovery, the code flow with PKCE S256 and a nonce through the hosted
 * login page, the ID token's signature against the JWKS and its claims, userinfo, refresh,
 * client_credentials, RFC 7009 revocation and RFC 7662 introspection, and authlib's OAuthError for
 * error responses). Runs when TESSERA_TEST_INTEROP_PYTHON names a python with
 * test/interop/python/requirements.txt installed (.ci/run makes that venv).
 */
const PYTHON = process.env.TESSERA_TEST_INTEROP_PYTHON;

if (!PYTHON) {
  describe("authlib relying party (interop tier)", () => {
    it("did not run: TESSERA_TEST_INTEROP_PYTHON is not set", () => {
      expect(PYTHON).toBeUndefined();
    });
  });
} else {
  describe("authlib relying party (interop tier)", () => {
    let server: TestServer;
    let realm: InteropRealm;

    beforeAll(async () => {
      server = await startEmbeddedServer("interop-python");
      realm = await provisionInteropRealm(server, "interop-python");
    }, 120_000);
    afterAll(async () => server?.stop());

    it("passes pytest in test/interop/python against the realm", async () => {
      // No .pytest_cache or __pycache__ left in the tree; a deprecated API of the pinned
      // libraries is an error, so the tier keeps to what authlib will go on supporting.
      const result = await runProgram(PYTHON, ["-m", "pytest", "-v", "-p", "no:cacheprovider", "-W", "error::DeprecationWarning", "test_authlib.py"], {
        cwd: join(ROOT, "test", "interop", "python"), env: { ...realm.env, PYTHONDONTWRITEBYTECODE: "1" },
        logName: "interop-python", timeoutMs: 120_000,
      });
      const passed = [...result.output.matchAll(/^test_authlib\.py::(\w+) PASSED/gm)].map((m) => m[1]!);
      expectPassed("pytest", result, passed, [
        "test_discovery", "test_code_flow_id_token_userinfo_and_refresh", "test_client_credentials", "test_introspection_and_revocation",
      ]);
    }, 180_000);
  });
}
