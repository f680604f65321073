/**
 * The CLI's exit codes (docs/cli.md): scripts branch on them, so they never change meaning.
 */
export const EXIT = {
  ok: 0,
  /** The server answered an error (4xx or 5xx); its message is on stderr. */
  apiError: 1,
  /** The command line was wrong: an unknown option, a missing argument, an unreadable file. */
  usage: 2,
  /** The server could not be reached. */
  unreachable: 3,
  /** No profile, or its credential was refused: run `tessera login`. */
  notLoggedIn: 4,
} as const;

/** An error the CLI reports as one line on stderr, then exits with `code`. */
export class CliError extends Error {
  constructor(readonly code: number, message: string, readonly field?: string) {
    super(message);
  }
}
