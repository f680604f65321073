import type { Server } from "node:net";
import { ConfigError } from "../config.js";

/** EX_CONFIG of sysexits.h: what every startup failure exits with, so a supervisor can tell it from a crash. */
export const STARTUP_FAILURE_EXIT_CODE = 78;

/** The variables a listening socket is configured by: one for the port, one for the address. */
export interface ListenSettings {
  port: string;
  host: string;
}

/**
 * Starts listening, turning the kernel's refusals into ConfigErrors that name the setting: a port
 * in use or reserved, an address that does not resolve or is not this machine's. Anything else is
 * rethrown as it came.
 */
export function listenOrExplain(server: Server, port: number, host: string, settings: ListenSettings): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onError = (e: Error) => reject(explainListenFailure(e, port, host, settings));
    server.once("error", onError);
    server.listen(port, host, () => {
      server.off("error", onError);
      resolve();
    });
  });
}

export function explainListenFailure(e: Error, port: number, host: string, settings: ListenSettings): Error {
  switch ((e as NodeJS.ErrnoException).code) {
    case "EADDRINUSE":
      return new ConfigError(settings.port, `port ${port} is in use on ${host} by another process; stop it, or choose another port`);
    case "EACCES":
      return new ConfigError(settings.port, `port ${port} on ${host} needs privileges this process does not have; choose a port above 1023`);
    case "ENOTFOUND":
    case "EAI_AGAIN":
    case "EAI_NODATA":
    case "EAI_FAIL":
      return new ConfigError(settings.host, `"${host}" does not resolve to an address (use an IP address of this machine, 0.0.0.0 or a resolvable host name)`);
    case "EADDRNOTAVAIL":
      return new ConfigError(settings.host, `${host} is not an address of this machine`);
    default:
      return e;
  }
}

/**
 * The one line a failed start leaves on stderr: the setting and what is wrong with it, or the
 * cause, without a stack trace (an operator reads it, and a supervisor's log keeps it whole). At
 * `TESSERA_LOG_LEVEL=debug` or `trace` the stack follows, for the developer chasing a bug.
 */
export function startupFailureLine(e: unknown): string {
  const text = e instanceof ConfigError
    ? `tessera: configuration error: ${e.message}`
    : `tessera: startup failed: ${e instanceof Error ? e.message : String(e)}`;
  return text.replace(/\s*\n\s*/g, " ").trim();
}

/** Reports a failed start as startupFailureLine says and exits 78. */
export function exitOnStartupFailure(e: unknown, logLevel = process.env.TESSERA_LOG_LEVEL): never {
  let out = startupFailureLine(e) + "\n";
  if ((logLevel === "debug" || logLevel === "trace") && e instanceof Error && e.stack) out += e.stack + "\n";
  // stderr is synchronous for files and pipes on POSIX, so the line is out before the exit.
  process.stderr.write(out);
  process.exit(STARTUP_FAILURE_EXIT_CODE);
}

/** Runs a process's startup, exiting as exitOnStartupFailure does when any part of it fails. */
export async function startOrExit<T>(start: () => Promise<T> | T): Promise<T> {
  try {
    return await start();
  } catch (e) {
    return exitOnStartupFailure(e);
  }
}
