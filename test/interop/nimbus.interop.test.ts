import { readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../e2e/support/process-runner.js";
import { describeInteropTier } from "./support/interop-tier.js";
import { expectPassed, runProgram } from "./support/run-program.js";

/**
 * Interop tier, Java: the Nimbus OAuth 2.0 / OpenID Connect SDK (com.nimbusds:oauth2-oidc-sdk,
 * what Spring Security's OAuth2 client uses underneath), through its own request, response and
 * validator classes, drives an embedded Tessera (test/interop/java: discovery with the SDK's issuer
 * check, the code flow with PKCE S256, state and nonce through the hosted login page, IDTokenValidator
 * and at_hash, userinfo, refresh, client_credentials with the access token verified by the JOSE JWT
 * processor, RFC 7662 introspection, RFC 7009 revocation, and the SDK's parsed error responses).
 * Runs when TESSERA_TEST_INTEROP_JAVA names the mvn command, offline: .ci/run resolves the
 * dependencies and plugins into the local Maven repository first (`mvn test -DskipTests`, which
 * also loads surefire and its JUnit Platform provider; `dependency:go-offline` misses part of that).
 */
const JAVA_DIR = join(ROOT, "test", "interop", "java");
const REPORTS = join(JAVA_DIR, "target", "surefire-reports");

/**
 * The tests surefire reports as passed, read from its XML reports (one TEST-<class>.xml per class):
 * a <testcase> with no <failure>, <error> or <skipped> inside. Named <class simple name>.<method>.
 */
function passedInReports(): string[] {
  let files: string[];
  try {
    files = readdirSync(REPORTS).filter((f) => /^TEST-.*\.xml$/.test(f));
  } catch {
    return [];
  }
  const passed: string[] = [];
  for (const file of files) {
    const xml = readFileSync(join(REPORTS, file), "utf8");
    for (const m of xml.matchAll(/<testcase\b([^>]*?)(\/>|>([\s\S]*?)<\/testcase>)/g)) {
      const name = /\bname="([^"]*)"/.exec(m[1]!)?.[1];
      const className = /\bclassname="([^"]*)"/.exec(m[1]!)?.[1];
      if (!name || !className || /<(failure|error|skipped)\b/.test(m[3] ?? "")) continue;
      passed.push(`${className.split(".").pop()}.${name}`);
    }
  }
  return passed;
}

describeInteropTier({
  title: "Nimbus OAuth 2.0 SDK relying party (interop tier)", variable: "TESSERA_TEST_INTEROP_JAVA", name: "interop-java",
  it: "passes mvn test in test/interop/java against the realm",
  async run(mvn, realm) {
    // No report of an earlier run may count as this run's pass.
    rmSync(REPORTS, { recursive: true, force: true });
    // -o: offline, every artifact already in the local repository; -q keeps the log to failures
    // (surefire prints a failing test's assertion and stack trace), the XML reports say what passed.
    const result = await runProgram(mvn, ["-q", "-o", "-B", "test"], {
      cwd: JAVA_DIR, env: realm.env, logName: "interop-java", timeoutMs: 120_000,
    });
    expectPassed("mvn test", result, passedInReports(), [
      "NimbusInteropTest.discovery", "NimbusInteropTest.codeFlowIdTokenUserInfoAndRefresh",
      "NimbusInteropTest.clientCredentials", "NimbusInteropTest.introspectionAndRevocation",
    ]);
  },
});
