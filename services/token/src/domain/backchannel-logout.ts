import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import type { Clock } from "../../../kit/src/store/port.js";
import type { KeyRing } from "./key-ring.js";
import type { ClientDirectory } from "./client-directory.js";
import type { IssuerBase } from "./issuer-base.js";
import type { RealmScope } from "./realm-scope.js";

/** OIDC Back-Channel Logout 1.0 section 2.6: the logout event. */
export const BACKCHANNEL_LOGOUT_EVENT = "http://schemas.openid.net/event/backchannel-logout";

export interface BackchannelOptions {
  /** Delivery attempts per client (first included). */
  attempts?: number;
  /** Delay before the second attempt; doubles after each failure. */
  backoffMs?: number;
  timeoutMs?: number;
}

export interface LogoutTarget {
  clientId: string;
  userId: string;
  sid: string;
}

/**
 * Sends logout tokens to clients' backchannelLogoutUri (OIDC Back-Channel Logout 1.0 section 2.5):
 * a signed JWT with iss, aud, iat, exp, jti, events, sub, and sid when the client asked for it
 * (backchannelLogoutSessionRequired), never a nonce (section 2.4). Delivery is detached from the
 * caller: the local session has already ended, whatever the client answers. Bounded retries with
 * exponential backoff; failures are logged (without the token).
 */
export class BackchannelLogout {
  private readonly pending = new Set<Promise<void>>();
  private readonly attempts: number;
  private readonly backoffMs: number;
  private readonly timeoutMs: number;

  constructor(
    private readonly keys: KeyRing,
    private readonly clients: ClientDirectory,
    private readonly issuers: IssuerBase,
    private readonly clock: Clock,
    private readonly logger: Logger,
    options: BackchannelOptions = {},
  ) {
    this.attempts = options.attempts ?? 3;
    this.backoffMs = options.backoffMs ?? 500;
    this.timeoutMs = options.timeoutMs ?? 5_000;
  }

  /** Schedules delivery to each target whose client has a back-channel logout URI. */
  notify(realm: RealmScope, targets: LogoutTarget[]): void {
    const seen = new Set<string>();
    for (const t of targets) {
      const key = `${t.clientId}\0${t.sid}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const p = this.deliver(realm, t).catch((err: unknown) => {
        this.logger.warn({ err, clientId: t.clientId }, "back-channel logout failed");
      });
      this.pending.add(p);
      void p.finally(() => this.pending.delete(p));
    }
  }

  /** Resolves when every scheduled delivery has finished (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  private async deliver(realm: RealmScope, t: LogoutTarget): Promise<void> {
    const client = await this.clients.get(realm.name, t.clientId);
    if (!client?.backchannelLogoutUri) return;
    const iat = Math.floor(this.clock.now() / 1000);
    const token = await this.keys.sign(realm, {
      iss: this.issuers.issuer(realm.name), aud: client.clientId, iat, exp: iat + 120, jti: randomUUID(),
      sub: t.userId,
      events: { [BACKCHANNEL_LOGOUT_EVENT]: {} },
      ...(client.backchannelLogoutSessionRequired && t.sid ? { sid: t.sid } : {}),
    }, { alg: await this.keys.currentAlg(realm), typ: "logout+jwt" });
    let delay = this.backoffMs;
    for (let attempt = 1; ; attempt++) {
      try {
        const res = await fetch(client.backchannelLogoutUri, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ logout_token: token }).toString(),
          signal: AbortSignal.timeout(this.timeoutMs),
          redirect: "manual",
        });
        await res.arrayBuffer().catch(() => undefined);
        if (res.status >= 200 && res.status < 300) return;
        if (attempt >= this.attempts) throw new Error(`client answered ${res.status}`);
      } catch (e) {
        if (attempt >= this.attempts) throw e;
      }
      await new Promise((r) => setTimeout(r, delay));
      delay *= 2;
    }
  }
}
