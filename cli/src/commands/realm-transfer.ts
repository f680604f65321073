import { chmodSync, existsSync, writeFileSync } from "node:fs";
import type { Command } from "commander";
import type { Schemas } from "../../../sdk/typescript/src/index.js";
import { readText } from "../input.js";
import { copyUnderName } from "../realm-copy.js";
import { CliError, EXIT } from "../exit-codes.js";
import { addOutputOptions } from "../output.js";
import { action, client, print, type OutputOptions } from "../run-action.js";

/** `tessera realms export|import`: a realm as one JSON document, to a file and back. */
export function addRealmTransferCommands(program: Command): void {
  const realms = program.commands.find((c) => c.name() === "realms");
  if (!realms) throw new Error("the realms command must be added first");

  realms.command("export").argument("<name>", "the realm")
    .description("write the realm's JSON export to a file (or stdout)")
    .option("--file <path>", "where to write it ('-' or absent: stdout)")
    .option("--include-users", "include users with their credentials (as hashes)")
    .option("--include-secrets", "include client secrets, credentials and signing keys")
    .action(action(async (name: string, o: { file?: string; includeUsers?: boolean; includeSecrets?: boolean }) => {
      const c = client();
      const doc = await c.call(c.api.GET("/admin/realms/{realmName}/export", {
        params: { path: { realmName: name }, query: { ...(o.includeUsers ? { includeUsers: true } : {}), ...(o.includeSecrets ? { includeSecrets: true } : {}) } },
      }));
      const text = JSON.stringify(doc, null, 2) + "\n";
      if (!o.file || o.file === "-") process.stdout.write(text);
      else {
        writeExport(o.file, text, Boolean(o.includeSecrets));
        process.stderr.write(`exported realm ${name} to ${o.file}\n`);
      }
    }));

  addOutputOptions(realms.command("import"))
    .description("create a realm from an export (Tessera's or Keycloak's realm-export.json)")
    .requiredOption("--file <path>", "the JSON document ('-' for stdin)")
    .option("--overwrite", "replace a realm of the same name")
    .option("--name <name>", "import a copy under this name (every id is made anew)")
    .action(action(async (o: OutputOptions & { file: string; overwrite?: boolean; name?: string }) => {
      let doc: unknown;
      try {
        doc = JSON.parse(readText(o.file));
      } catch (e) {
        if (e instanceof CliError) throw e;
        throw new CliError(EXIT.usage, `${o.file} is not valid JSON: ${(e as Error).message}`);
      }
      if (o.name !== undefined) doc = copyUnderName(doc, o.name);
      const c = client();
      // The server checks the document (any shape may be a Keycloak export); the CLI only parses it.
      const body = doc as Schemas["RealmImportDocument"];
      print(await c.call(c.api.POST("/admin/realms/import", { body, params: { query: o.overwrite ? { overwrite: true } : {} } })), o);
    }));
}

/**
 * An export with secrets is as sensitive as the server's own store: owner-only. A file that already
 * exists keeps its mode on write, so it is made owner-only first, before the secrets are in it.
 */
function writeExport(path: string, text: string, secrets: boolean): void {
  const mode = secrets ? 0o600 : 0o644;
  try {
    if (secrets && existsSync(path)) chmodSync(path, mode);
    writeFileSync(path, text, { mode });
  } catch (e) {
    throw new CliError(EXIT.usage, `cannot write ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}
