import { join } from "node:path";
import { ROOT } from "../e2e/support/process-runner.js";
import { describeInteropTier } from "./support/interop-tier.js";
import { expectPassed, runProgram } from "./support/run-program.js";

/**
 * Interop tier, Python: authlib's OAuth2Session (requests) and its OpenID Connect ID token
 * validation, as a Python app written for Keycloak uses them, drive an embedded Tessera
 * (test/interop/python: discovery, the code flow with PKCE S256 and a nonce through the hosted
 * login page, the ID token's signature against the JWKS and its claims, userinfo, refresh,
 * client_credentials, RFC 7009 revocation and RFC 7662 introspection, and authlib's OAuthError for
 * error responses; test_private_key_jwt.py: authlib's PrivateKeyJWT for client_credentials and the
 * code flow, a replayed assertion refused, and a pushed authorization request, RFC 9126). Runs
 * when TESSERA_TEST_INTEROP_PYTHON names a python with test/interop/python/requirements.txt
 * installed (.ci/run makes that venv).
 */
describeInteropTier({
  title: "authlib relying party (interop tier)", variable: "TESSERA_TEST_INTEROP_PYTHON", name: "interop-python",
  it: "passes pytest in test/interop/python against the realm",
  async run(python, realm) {
    // No .pytest_cache or __pycache__ left in the tree; a deprecated API of the pinned
    // libraries is an error, so the tier keeps to what authlib will go on supporting.
    const result = await runProgram(python, ["-m", "pytest", "-v", "-p", "no:cacheprovider", "-W", "error::DeprecationWarning", "test_authlib.py", "test_private_key_jwt.py"], {
      cwd: join(ROOT, "test", "interop", "python"), env: { ...realm.env, PYTHONDONTWRITEBYTECODE: "1" },
      logName: "interop-python", timeoutMs: 120_000,
    });
    const passed = [...result.output.matchAll(/^test_(?:authlib|private_key_jwt)\.py::(\w+) PASSED/gm)].map((m) => m[1]!);
    expectPassed("pytest", result, passed, [
      "test_discovery", "test_code_flow_id_token_userinfo_and_refresh", "test_client_credentials", "test_introspection_and_revocation",
      "test_private_key_jwt_client_credentials", "test_pushed_authorization_code_flow",
    ]);
  },
});
