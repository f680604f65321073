import { createServer, type Server } from "node:http";
import { decodeJwt } from "jose";

/** One back-channel logout received: the client it came for (the path it was posted to) and the token's sid. */
export interface ReceivedLogout {
  client: string;
  sid: unknown;
}

/**
 * A client's back-channel logout endpoint for e2e tests (OIDC Back-Channel Logout 1.0 section 2.5):
 * register `${url}/<clientId>` as a client's backchannelLogoutUri; each POSTed logout_token is kept
 * in `received`, oldest first.
 */
export class BackchannelReceiver {
  readonly received: ReceivedLogout[] = [];
  url = "";
  private server: Server | undefined;

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        this.received.push({ client: (req.url ?? "").slice(1), sid: decodeJwt(new URLSearchParams(body).get("logout_token") ?? "").sid });
        res.end();
      });
    });
    await new Promise<void>((r) => this.server!.listen(0, "127.0.0.1", () => r()));
    this.url = `http://127.0.0.1:${(this.server.address() as { port: number }).port}`;
  }

  stop(): Promise<void> {
    return new Promise((r) => (this.server ? this.server.close(() => r()) : r()));
  }
}
