#!/usr/bin/env node
import { readFileSync } from "node:fs";
import { Command, CommanderError } from "commander";
import { addCompletionCommand } from "./commands/completion.js";
import { addEventsCommand } from "./commands/events-tail.js";
import { addHealthCommand } from "./commands/health.js";
import { addLoginCommand } from "./commands/login.js";
import { addRealmTransferCommands } from "./commands/realm-transfer.js";
import { addResourceCommands } from "./commands/resource-commands.js";
import { addTokenCommand } from "./commands/token.js";
import { addUserImportCommand } from "./commands/user-import.js";
import { EXIT } from "./exit-codes.js";
import { oneLineUsageErrors } from "./usage-errors.js";

/** `tessera`: the command-line client of Tessera's Admin API (docs/cli.md). */
const pkg = JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8")) as { version: string };

// `tessera users list | head -1`: the reader has what it wanted once it closes the pipe, so a write
// after that ends the process quietly instead of crashing with a stack trace.
process.stdout.on("error", (e: NodeJS.ErrnoException) => {
  if (e.code === "EPIPE") process.exit(EXIT.ok);
  throw e;
});

const program = new Command("tessera")
  .description("Command-line client of a Tessera server's Admin API.\nStart with: tessera login --url http://localhost:8080 --api-key <key>")
  .version(pkg.version)
  .exitOverride();

addLoginCommand(program);
addResourceCommands(program);
addRealmTransferCommands(program);
addUserImportCommand(program);
addEventsCommand(program);
addTokenCommand(program);
addHealthCommand(program);
addCompletionCommand(program);
oneLineUsageErrors(program);
program.addHelpText("after", `
Exit codes: 0 ok, 1 the server answered an error, 2 wrong usage, 3 server unreachable, 4 not logged in
or credential refused. Environment: TESSERA_URL, TESSERA_API_KEY, TESSERA_CONFIG (profile file).`);

try {
  await program.parseAsync(process.argv);
} catch (e) {
  if (e instanceof CommanderError) {
    // --help and --version end here with code 0; a usage error has already been printed.
    process.exitCode = e.exitCode === 0 ? EXIT.ok : EXIT.usage;
  } else throw e;
}
