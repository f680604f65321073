import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ConfigError } from "../../../services/kit/src/config.js";
import { generateMasterKey } from "../../../services/kit/src/crypto/secret-box.js";
import { randomToken, sha256Hex } from "../../../services/kit/src/crypto/random.js";
import { masterKeyProblem } from "../../../services/kit/src/runtime/common-config.js";
import { DEFAULT_ADMIN_USERNAME } from "../../../services/directory/src/config.js";

export interface EmbeddedSecrets {
  masterKey: string;
  apiKeySha256: string;
  /** Set only on the start that generated it: printed once, never stored in clear. */
  newApiKey?: string;
  /** Bootstrap admin to create or re-set (only when configured, or until a start has created it). */
  admin?: { username: string; password: string; generated: boolean };
  /**
   * Records what this start generated: the API key's hash, and that the generated admin account
   * exists. Called only once the start has succeeded, right before the secrets are printed, so a
   * start that fails leaves nothing behind that the next one would not generate and print again.
   */
  persist(): void;
}

/**
 * Embedded mode's secrets (DESIGN 2): the master key and the admin API key are generated into the
 * data dir on first start unless given by TESSERA_MASTER_KEY / TESSERA_ADMIN_API_KEY. The API key
 * is kept only as its SHA-256, so it is printed once and never again.
 *
 * The master key is written at once: the services may seal secrets (signing keys) with it before
 * the start completes, and those must open on the next start. It is never printed, so writing it
 * early loses nothing.
 */
export function loadEmbeddedSecrets(opts: {
  dataDir: string;
  masterKey?: string;
  apiKey?: string;
  adminUsername?: string;
  adminPassword?: string;
}): EmbeddedSecrets {
  const memory = opts.dataDir === ":memory:";
  if (!memory) mkdirSync(opts.dataDir, { recursive: true, mode: 0o700 });
  const file = (name: string) => join(opts.dataDir, name);

  let masterKey = opts.masterKey;
  if (!masterKey) {
    if (!memory && existsSync(file("master.key"))) {
      masterKey = readFileSync(file("master.key"), "utf8").trim();
      const problem = masterKeyProblem(masterKey);
      if (problem) {
        throw new ConfigError("TESSERA_DATA_DIR", `${file("master.key")} does not hold a master key (it ${problem}); restore it from a backup, or set TESSERA_MASTER_KEY`);
      }
    } else {
      masterKey = generateMasterKey();
      if (!memory) writeFileSync(file("master.key"), masterKey + "\n", { mode: 0o600 });
    }
  }

  let apiKeySha256: string;
  let newApiKey: string | undefined;
  if (opts.apiKey) apiKeySha256 = sha256Hex(opts.apiKey);
  else if (!memory && existsSync(file("admin-api-key.sha256"))) {
    apiKeySha256 = readFileSync(file("admin-api-key.sha256"), "utf8").trim();
  } else {
    newApiKey = `tsk_${randomToken(32)}`;
    apiKeySha256 = sha256Hex(newApiKey);
  }

  const marker = file("admin-account.created");
  let admin: EmbeddedSecrets["admin"];
  if (opts.adminPassword) {
    // The password alone re-sets the default account's: how a lost admin password is recovered.
    admin = { username: opts.adminUsername ?? DEFAULT_ADMIN_USERNAME, password: opts.adminPassword, generated: false };
  } else if (memory || !existsSync(marker)) {
    admin = { username: opts.adminUsername ?? DEFAULT_ADMIN_USERNAME, password: randomToken(18), generated: true };
  }

  return {
    masterKey,
    apiKeySha256,
    ...(newApiKey ? { newApiKey } : {}),
    ...(admin ? { admin } : {}),
    persist() {
      if (memory) return;
      if (newApiKey) writeFileSync(file("admin-api-key.sha256"), apiKeySha256 + "\n", { mode: 0o600 });
      if (admin?.generated) writeFileSync(marker, new Date().toISOString() + "\n", { mode: 0o600 });
    },
  };
}
