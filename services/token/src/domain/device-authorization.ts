import { randomToken, sha256Hex } from "../../../kit/src/crypto/random.js";
import type { SecretBox } from "../../../kit/src/crypto/secret-box.js";
import { IamError } from "../../../kit/src/errors.js";
import type { Clock } from "../../../kit/src/store/port.js";
import type { DeviceCodeRepository } from "../store/device-code-repository.js";
import type { ClientInfo } from "./client-directory.js";
import type { OAuthRealm } from "./realm-settings.js";
import { grantableScopes } from "./offline-access.js";
import { checkRequestedScope } from "./requested-scope.js";
import { displayUserCode, newUserCode } from "./user-code.js";

export const DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";
export const DEVICE_CODE_LIFETIME_S = 600;
export const DEVICE_POLL_INTERVAL_S = 5;

export interface DeviceAuthorization {
  deviceCode: string;
  userCode: string;
  verificationUri: string;
  verificationUriComplete: string;
  expiresIn: number;
  interval: number;
}

/**
 * The device authorization endpoint (RFC 8628 section 3.1-3.2). The device code is
 * `<256-bit random>.<expiry, base36 ms>.<MAC>` (see deviceCodeExpiry): only its SHA-256 is stored,
 * and a poll after the store forgot it can still answer expired_token. The user code: user-code.ts.
 */
export class DeviceAuthorizations {
  constructor(private readonly codes: DeviceCodeRepository, private readonly secrets: SecretBox, private readonly clock: Clock) {}

  async start(realm: OAuthRealm, issuer: string, client: ClientInfo, scope: string | undefined): Promise<DeviceAuthorization> {
    if (!client.grantTypes.includes(DEVICE_GRANT)) throw IamError.oauth("unauthorized_client", "the client may not use the device authorization grant");
    // Refused here rather than after the user approved (requested-scope.ts); the token endpoint
    // checks the user's grant again when the device polls. offline_access, which a client without
    // refresh tokens is not granted, is dropped now, so the verification page does not ask for it.
    const requested = checkRequestedScope(client, scope);
    if (!requested.ok) throw IamError.oauth("invalid_scope", requested.description);
    const names = grantableScopes(requested.names, client);
    const now = this.clock.now();
    const expiresAt = now + DEVICE_CODE_LIFETIME_S * 1000;
    const deviceCode = newDeviceCode(this.secrets, realm.id, client.clientId, expiresAt);
    for (let attempt = 0; ; attempt++) {
      const userCode = newUserCode();
      try {
        await this.codes.insert({
          _id: sha256Hex(deviceCode), realmId: realm.id, realmName: realm.name, clientId: client.clientId, clientInternalId: client.id, userCode,
          scope: names.join(" "), status: "pending", interval: DEVICE_POLL_INTERVAL_S, lastPolledAt: 0, createdAt: now, expiresAt,
        });
        const display = displayUserCode(userCode);
        const verificationUri = `${issuer}/device`;
        return {
          deviceCode, userCode: display, verificationUri,
          verificationUriComplete: `${verificationUri}?user_code=${display}`,
          expiresIn: DEVICE_CODE_LIFETIME_S, interval: DEVICE_POLL_INTERVAL_S,
        };
      } catch (e) {
        if (!(e instanceof IamError && e.code === "alreadyExists") || attempt >= 4) throw e;
      }
    }
  }
}

const DEVICE_CODE_MAC = "token:device-code:v1";

function newDeviceCode(secrets: SecretBox, realmId: string, clientId: string, expiresAt: number): string {
  const code = `${randomToken(32)}.${expiresAt.toString(36)}`;
  return `${code}.${secrets.mac(DEVICE_CODE_MAC, `${realmId}\0${clientId}\0${code}`)}`;
}

/**
 * The expiry (epoch ms) of a device code this server issued to this client in this realm, or null.
 * The store forgets a code when it expires, so the code's own suffix is what tells expired_token
 * (RFC 8628 section 3.5) from a code never issued, which is invalid_grant. The suffix is MACed
 * (bound to realm and client) under the master key, which every token replica holds: a made-up or
 * altered code is never told "expired", and telling them apart costs one HMAC after the poll's one
 * store read, where a tombstone would keep every expired code in the store (and only for so long).
 */
export function deviceCodeExpiry(secrets: SecretBox, code: string, realmId: string, clientId: string): number | null {
  const m = /^([A-Za-z0-9_-]{43}\.([0-9a-z]{1,12}))\.([A-Za-z0-9_-]{22})$/.exec(code);
  if (!m || !secrets.verifyMac(DEVICE_CODE_MAC, `${realmId}\0${clientId}\0${m[1]!}`, m[3]!)) return null;
  return parseInt(m[2]!, 36);
}
