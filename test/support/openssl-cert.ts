import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * A real self-signed certificate made by the openssl command line (an independent implementation),
 * for tests of certificate parsing. (OpenSSL 3.0's `req` cannot backdate; expired certificates are
 * made with the service's own builder in the tests.)
 */
export function opensslCertificate(opts: { cn: string; key?: "rsa" | "ec" | "ed25519" }): string {
  const dir = mkdtempSync(join(tmpdir(), "tessera-cert-"));
  try {
    const keyArgs = opts.key === "ec" ? ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256"]
      : opts.key === "ed25519" ? ["-newkey", "ed25519"]
        : ["-newkey", "rsa:2048"];
    execFileSync("openssl", [
      "req", "-x509", ...keyArgs, "-nodes", "-keyout", join(dir, "key.pem"), "-out", join(dir, "cert.pem"),
      "-subj", `/CN=${opts.cn}`, "-days", "30",
    ], { stdio: "pipe" });
    return readFileSync(join(dir, "cert.pem"), "utf8");
  } catch (e) {
    throw new Error(`openssl failed: ${(e as { stderr?: Buffer }).stderr?.toString() ?? String(e)}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The base64 body of a PEM certificate, without BEGIN/END lines. */
export function pemBody(pem: string): string {
  return pem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, "").replace(/\s+/g, "");
}
