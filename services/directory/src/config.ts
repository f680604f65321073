import { ARGON2_LIMITS } from "./domain/stored-hash.js";
import { baseUrl, int, optStr, type Env } from "../../kit/src/config.js";
import { gatewayPort, readCommonConfig, type CommonConfig } from "../../kit/src/runtime/common-config.js";
import { cpuBudget } from "../../kit/src/runtime/cpu-budget.js";
import type { Argon2Params } from "./domain/password-hasher.js";
import type { AdminLoginPolicy } from "./domain/admin-login-lockout.js";

/** The bootstrap admin's username when TESSERA_ADMIN_USERNAME is not set. */
export const DEFAULT_ADMIN_USERNAME = "admin";

export interface DirectoryConfig {
  common: CommonConfig;
  /**
   * Bootstrap admin account, created or its password re-set at start. The password alone names
   * the account `admin` (the default username), which is how a lost password is recovered.
   */
  adminUsername: string | undefined;
  adminPassword: string | undefined;
  argon2: Argon2Params;
  /** Password hashing threads, so jobs at once (TESSERA_HASHING_CONCURRENCY); default: the cores this process may use. */
  hashingConcurrency: number;
  /** `{base_url}` (TESSERA_PUBLIC_URL, as the gateway reads it), for links in emails. */
  publicUrl: string;
  /** Admin login brute-force protection (admin-login-lockout.ts). */
  adminLogin: AdminLoginPolicy;
}

export function loadDirectoryConfig(env: Env): DirectoryConfig {
  const adminPassword = optStr(env, "TESSERA_ADMIN_PASSWORD");
  return {
    common: readCommonConfig(env),
    adminUsername: optStr(env, "TESSERA_ADMIN_USERNAME") ?? (adminPassword ? DEFAULT_ADMIN_USERNAME : undefined),
    adminPassword,
    argon2: {
      memoryCost: int(env, "TESSERA_ARGON2_MEMORY_KIB", 19456, 1024, ARGON2_LIMITS.memoryKiB),
      timeCost: int(env, "TESSERA_ARGON2_ITERATIONS", 2, 1, ARGON2_LIMITS.iterations),
      parallelism: int(env, "TESSERA_ARGON2_PARALLELISM", 1, 1, ARGON2_LIMITS.parallelism),
    },
    hashingConcurrency: int(env, "TESSERA_HASHING_CONCURRENCY", cpuBudget(), 1, 256),
    publicUrl: baseUrl(env, "TESSERA_PUBLIC_URL", `http://localhost:${gatewayPort(env)}`),
    adminLogin: {
      maxPerAccount: int(env, "TESSERA_ADMIN_LOGIN_MAX_FAILURES", 10, 1, 1000),
      maxPerAddress: int(env, "TESSERA_ADMIN_LOGIN_MAX_FAILURES_PER_ADDRESS", 30, 1, 100_000),
      lockoutSeconds: int(env, "TESSERA_ADMIN_LOGIN_LOCKOUT_SECONDS", 900, 1, 86_400),
    },
  };
}
