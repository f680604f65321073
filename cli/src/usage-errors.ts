import type { Command } from "commander";

/**
 * Makes every command report a usage error as one line on stderr, in the CLI's own
 * `tessera: ...` form, naming the help to read. Commander's default (its message, then the whole
 * help text) buries the one line that matters, and scripts that log stderr get pages of noise.
 * Each command gets its own output settings because the hint names that command's path.
 */
export function oneLineUsageErrors(root: Command): void {
  const visit = (cmd: Command, path: string) => {
    cmd.configureOutput({
      outputError: (message, write) => write(`tessera: ${oneLine(message)} (see: ${path} --help)\n`),
    });
    for (const sub of cmd.commands) visit(sub, `${path} ${sub.name()}`);
  };
  visit(root, root.name());
}

/** Commander's message without its `error: ` prefix, its "Did you mean" hint on the same line. */
function oneLine(message: string): string {
  return message.replace(/^error: /, "").trim().replace(/\s*\n\s*/g, " ");
}
