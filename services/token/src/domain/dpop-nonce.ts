import type { SecretBox } from "../../../kit/src/crypto/secret-box.js";
import type { Clock } from "../../../kit/src/store/port.js";

/** How long one nonce window lasts; a nonce is accepted in its window and the next (so 5 to 10 minutes). */
export const NONCE_WINDOW_S = 300;
const PURPOSE = "dpop-nonce";

/**
 * Server-provided DPoP nonces (RFC 9449 section 8, 9): stateless, so every replica issues and
 * accepts the same ones without a store. A nonce is `<window>.<mac>`, the MAC (under the master
 * key, SecretBox) binding the time window to the realm; section 8.2 lets the server rotate nonces
 * at will, and a client holding one of the previous window is answered use_dpop_nonce with the
 * current one, which it retries with.
 */
export class DpopNonces {
  constructor(private readonly secrets: SecretBox, private readonly clock: Clock) {}

  current(realm: string): string {
    return this.forWindow(realm, this.window());
  }

  /** Whether `nonce` is this realm's nonce of the current or the previous window. */
  accepts(realm: string, nonce: string): boolean {
    const m = /^(\d{1,12})\.([A-Za-z0-9_-]{22})$/.exec(nonce);
    if (!m) return false;
    const w = Number(m[1]);
    const now = this.window();
    if (w !== now && w !== now - 1) return false;
    return this.secrets.verifyMac(PURPOSE, `${realm}\0${w}`, m[2]!);
  }

  private window(): number {
    return Math.floor(this.clock.now() / 1000 / NONCE_WINDOW_S);
  }

  private forWindow(realm: string, w: number): string {
    return `${w}.${this.secrets.mac(PURPOSE, `${realm}\0${w}`)}`;
  }
}
