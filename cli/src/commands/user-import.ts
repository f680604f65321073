import type { Command } from "commander";
import { CliError, EXIT } from "../exit-codes.js";
import { readText } from "../input.js";
import { Progress } from "../progress.js";
import { addOutputOptions } from "../output.js";
import { action, client, print, requireRealm, type OutputOptions } from "../run-action.js";
import { readUserFile, UserFileError, type UserFile } from "../../../sdk/typescript/src/user-file.js";

interface ImportAnswer {
  imported: number;
  skipped: number;
  failed: number;
  errors: Array<{ index: number; line?: number; username: string; error: string; message: string }>;
}

/**
 * `tessera users import`: users from a JSON array (or `{users: [...]}`) or a CSV file with a header
 * row, sent in batches to POST /admin/realms/:realm/users/import with a progress bar; the summary
 * adds the batches up, and error indexes count from the file's first user.
 */
export function addUserImportCommand(program: Command): void {
  const users = program.commands.find((c) => c.name() === "users");
  if (!users) throw new Error("the users command must be added first");
  addOutputOptions(users.command("import"))
    .description("import users from a JSON or CSV file (CSV columns: username, email, firstName, lastName, password, enabled, emailVerified)")
    .requiredOption("-r, --realm <realm>", "the realm")
    .requiredOption("--file <path>", "a .json or .csv file ('-' for JSON on stdin)")
    .option("--batch <n>", "users per request (1-10000)", "500")
    .action(action(async (o: OutputOptions & { realm: string; file: string; batch: string }) => {
      const realm = requireRealm(o.realm);
      const batch = Number(o.batch);
      if (!Number.isInteger(batch) || batch < 1 || batch > 10_000) throw new CliError(EXIT.usage, "--batch must be an integer from 1 to 10000");
      const { users: list, lines } = readUsers(o.file);
      const api = client();
      const total: ImportAnswer = { imported: 0, skipped: 0, failed: 0, errors: [] };
      const bar = new Progress(list.length, "importing users");
      bar.update(0);
      for (let start = 0; start < list.length; start += batch) {
        const answer = await api.request<ImportAnswer>("POST", `/admin/realms/${encodeURIComponent(realm)}/users/import`, { users: list.slice(start, start + batch) });
        total.imported += answer.imported;
        total.skipped += answer.skipped;
        total.failed += answer.failed;
        total.errors.push(...answer.errors.map((e) => {
          const index = e.index + start;
          return lines ? { ...e, index, line: lines[index]! } : { ...e, index };
        }));
        bar.update(Math.min(list.length, start + batch));
      }
      bar.finish();
      if (o.json || o.output !== "table") print(total, o);
      else {
        process.stdout.write(`imported ${total.imported}, skipped ${total.skipped}, failed ${total.failed} of ${list.length}\n`);
        for (const e of total.errors) process.stdout.write(`  ${where(e)}: ${e.error}: ${e.message}\n`);
      }
      if (total.failed > 0) process.exitCode = EXIT.apiError;
    }));
}

/** Where a failed user is: its CSV line, else its index in the JSON list; and its username. */
function where(e: ImportAnswer["errors"][number]): string {
  const at = e.line !== undefined ? `line ${e.line}` : `#${e.index}`;
  return e.username ? `${at} (${e.username})` : at;
}

function readUsers(path: string): UserFile {
  try {
    return readUserFile(path, readText(path));
  } catch (e) {
    if (e instanceof UserFileError) throw new CliError(EXIT.usage, e.message);
    throw e;
  }
}
