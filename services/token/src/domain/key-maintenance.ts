import type { Logger } from "pino";
import type { KeyRing } from "./key-ring.js";
import type { RealmResolver } from "./realm-scope.js";

export interface KeyMaintenanceOptions {
  /** An active key older than this is rotated (TESSERA_KEY_ROTATION_DAYS). */
  rotationMs: number;
  /** How often the schedule is checked (TESSERA_KEY_CHECK_INTERVAL_SECONDS); 0 disables the timer. */
  checkIntervalMs: number;
}

/**
 * The rotation schedule: rotates active keys past their age, and retires passive keys whose last
 * token has expired. Runs on an unref'd timer; ticks never overlap; a failed tick is logged.
 */
export class KeyMaintenance {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly keys: KeyRing,
    private readonly realms: RealmResolver,
    private readonly options: KeyMaintenanceOptions,
    private readonly logger: Logger,
  ) {}

  start(): void {
    if (this.options.checkIntervalMs <= 0) return;
    this.timer = setInterval(() => void this.tickQuietly(), this.options.checkIntervalMs);
    this.timer.unref();
    void this.tickQuietly();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** One pass: returns how many keys rotated. */
  async tick(): Promise<number> {
    let rotated = 0;
    for (const key of await this.keys.dueForRotation(this.options.rotationMs)) {
      const realm = await this.realms.resolve(key.realmName);
      // A realm deleted (or re-created under the same name) is cleaned up by the realm.deleted consumer.
      if (!realm || realm.id !== key.realmId) continue;
      if (await this.keys.rotate(realm, key.alg, key._id)) {
        rotated++;
        this.logger.info({ realm: realm.name, alg: key.alg, kid: key._id }, "signing key rotated on schedule");
      }
    }
    await this.keys.retireExpired();
    return rotated;
  }

  private async tickQuietly(): Promise<void> {
    if (this.running) return;
    this.running = this.tick().then(() => undefined, (err: unknown) => {
      this.logger.warn({ err }, "signing key maintenance failed; retrying on the next tick");
    }).finally(() => { this.running = undefined; });
    await this.running;
  }
}
