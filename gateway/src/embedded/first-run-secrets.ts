import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { generateMasterKey } from "../../../services/kit/src/crypto/secret-box.js";
import { randomToken, sha256Hex } from "../../../services/kit/src/crypto/random.js";

export interface EmbeddedSecrets {
  masterKey: string;
  apiKeySha256: string;
  /** Set only on the start that generated it: printed once, never stored in clear. */
  newApiKey?: string;
  /** Bootstrap admin to create (only when configured, or on the very first start). */
  admin?: { username: string; password: string; generated: boolean };
  /** Call once the admin account exists, so a generated password is not generated again. */
  markAdminCreated(): void;
}

/**
 * Embedded mode's secrets (DESIGN 2): the master key and the admin API key are generated into the
 * data dir on first start unless given by TESSERA_MASTER_KEY / TESSERA_ADMIN_API_KEY. The API key
 * is kept only as its SHA-256, so it is printed once and never again.
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
    if (!memory && existsSync(file("master.key"))) masterKey = readFileSync(file("master.key"), "utf8").trim();
    else {
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
    if (!memory) writeFileSync(file("admin-api-key.sha256"), apiKeySha256 + "\n", { mode: 0o600 });
  }

  const marker = file("admin-account.created");
  let admin: EmbeddedSecrets["admin"];
  if (opts.adminUsername && opts.adminPassword) {
    admin = { username: opts.adminUsername, password: opts.adminPassword, generated: false };
  } else if (memory || !existsSync(marker)) {
    admin = { username: opts.adminUsername ?? "admin", password: randomToken(18), generated: true };
  }

  return {
    masterKey,
    apiKeySha256,
    ...(newApiKey ? { newApiKey } : {}),
    ...(admin ? { admin } : {}),
    markAdminCreated() {
      if (!memory && admin?.generated) writeFileSync(marker, new Date().toISOString() + "\n", { mode: 0o600 });
    },
  };
}
