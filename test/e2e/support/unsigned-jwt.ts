// Test support (no tests here): request objects for the JAR and PAR e2e.

/** An unsigned request object (alg none, RFC 7519 section 6). */
export function unsigned(payload: Record<string, unknown>): string {
  const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");
  return `${b64({ alg: "none" })}.${b64(payload)}.`;
}
