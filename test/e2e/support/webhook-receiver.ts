import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { freePort } from "./free-port.js";

/**
 * A Standard Webhooks verifier written from the specification (standardwebhooks.com, "Verifying
 * webhooks"), independent of Tessera's signer: signed content `id.timestamp.body`; key the
 * base64-decoded secret after `whsec_`; `webhook-signature` a space-separated list of
 * `v1,<base64 HMAC-SHA256>`; a timestamp over 5 minutes from now refused.
 */
export function verifyStandardWebhook(secret: string, headers: IncomingHttpHeaders, body: string, nowSeconds = Date.now() / 1000): boolean {
  const id = headers["webhook-id"], ts = headers["webhook-timestamp"], sigs = headers["webhook-signature"];
  if (typeof id !== "string" || typeof ts !== "string" || typeof sigs !== "string") return false;
  if (!/^\d+$/.test(ts) || Math.abs(nowSeconds - Number(ts)) > 300) return false;
  if (!secret.startsWith("whsec_")) return false;
  const expected = createHmac("sha256", Buffer.from(secret.slice(6), "base64")).update(`${id}.${ts}.${body}`).digest();
  return sigs.split(" ").some((s) => {
    const [version, mac] = s.split(",", 2);
    if (version !== "v1" || !mac) return false;
    const got = Buffer.from(mac, "base64");
    return got.length === expected.length && timingSafeEqual(got, expected);
  });
}

export interface ReceivedHook {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The parsed body: `{ type, timestamp, data }`. */
  json: { type: string; timestamp: string; data: Record<string, unknown> };
}

/** A loopback webhook receiver that can answer an error status, or be down (its port closed). */
export class WebhookReceiver {
  readonly received: ReceivedHook[] = [];
  /** The status it answers while up. */
  status = 204;
  /** When true, requests are read and never answered (the sender's timeout ends them). */
  hang = false;
  /** Requests left unanswered so far. */
  hung = 0;
  private server: Server | undefined;

  private constructor(readonly port: number) {}

  static async start(): Promise<WebhookReceiver> {
    const r = new WebhookReceiver(await freePort());
    await r.up();
    return r;
  }

  url(path = "/hook"): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  /** Received on one path (one webhook each). */
  on(path: string): ReceivedHook[] {
    return this.received.filter((r) => r.path === path);
  }

  async up(): Promise<void> {
    const server = createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => { body += c.toString("utf8"); });
      req.on("end", () => {
        if (this.hang) {
          this.hung++;
          return;
        }
        if (this.status >= 200 && this.status < 300) {
          this.received.push({ path: req.url ?? "", headers: req.headers, body, json: JSON.parse(body) as ReceivedHook["json"] });
        }
        res.writeHead(this.status);
        res.end();
      });
    });
    await new Promise<void>((r) => server.listen(this.port, "127.0.0.1", r));
    this.server = server;
  }

  /** Closes the port: attempts meet a refused connection. */
  async down(): Promise<void> {
    const s = this.server;
    this.server = undefined;
    if (!s) return;
    s.closeAllConnections();
    await new Promise<void>((r) => s.close(() => r()));
  }
}
