import { pino, type Logger } from "pino";
import { currentContext } from "./context.js";

/**
 * pino JSON logging. Redaction is a second line of defence: code must never log a password,
 * secret, code or token in the first place (DESIGN 4).
 */
const REDACT = [
  "password", "*.password", "secret", "*.secret", "clientSecret", "*.clientSecret",
  "smtpPassword", "*.smtpPassword", "bindCredential", "*.bindCredential", "token", "*.token",
  "req.headers.authorization", "req.headers[\"x-admin-api-key\"]", "headers.authorization",
  "headers[\"x-admin-api-key\"]",
];

export function createLogger(service: string, level = "info"): Logger {
  return pino({
    level,
    base: { service },
    redact: { paths: REDACT, censor: "[redacted]" },
    timestamp: pino.stdTimeFunctions.isoTime,
  });
}

/** The request's child logger when inside a request, else the given root logger. */
export function log(root: Logger): Logger {
  return currentContext()?.logger ?? root;
}
