import { SMTPServer } from "smtp-server";
import { freePort } from "./free-port.js";

export interface SunkMail {
  from: string;
  to: string[];
  raw: string;
  auth?: { username: string; password: string };
}

/** An SMTP server that accepts everything (optionally only one login) and keeps the raw messages. */
export async function startSmtpSink(options: { username?: string; password?: string } = {}): Promise<{
  port: number; mails: SunkMail[]; stop(): Promise<void>;
}> {
  const mails: SunkMail[] = [];
  let lastAuth: { username: string; password: string } | undefined;
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ["STARTTLS"],
    authOptional: !options.username,
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, cb) {
      if (options.username && (auth.username !== options.username || auth.password !== options.password)) {
        cb(new Error("Invalid username or password"));
        return;
      }
      lastAuth = { username: auth.username ?? "", password: auth.password ?? "" };
      cb(null, { user: auth.username });
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString("utf8"),
          ...(lastAuth ? { auth: lastAuth } : {}),
        });
        cb();
      });
    },
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", () => resolve()));
  return { port, mails, stop: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** The decoded text of a raw message: quoted-printable soft breaks and escapes undone. */
export function decodeQuotedPrintable(raw: string): string {
  return raw.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
}
