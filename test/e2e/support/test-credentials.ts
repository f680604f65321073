import { randomBytes } from "node:crypto";

/**
 * The settings every test server starts with: known admin credentials and cheap hashing (keeps
 * e2e fast; the benchmark uses the production argon2 parameters). Values in `given` win.
 */
export function testServerEnv(given: Record<string, string> = {}): { apiKey: string; adminPassword: string; env: Record<string, string> } {
  const apiKey = given.TESSERA_ADMIN_API_KEY ?? `test-key-${randomBytes(12).toString("hex")}`;
  const adminPassword = given.TESSERA_ADMIN_PASSWORD ?? `pw-${randomBytes(12).toString("hex")}`;
  return {
    apiKey,
    adminPassword,
    env: {
      TESSERA_ADMIN_API_KEY: apiKey,
      TESSERA_ADMIN_USERNAME: "admin",
      TESSERA_ADMIN_PASSWORD: adminPassword,
      TESSERA_LOG_LEVEL: "info",
      TESSERA_ARGON2_MEMORY_KIB: "4096",
      TESSERA_ARGON2_ITERATIONS: "1",
      TESSERA_HOST: "127.0.0.1",
      // Embedded mode passes messages by reference; frozen, any mutation of a foreign message throws.
      TESSERA_FREEZE_RPC_MESSAGES: "true",
      ...given,
    },
  };
}
