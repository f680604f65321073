import { lazyImport } from "../../../services/kit/src/runtime/lazy-import.js";

// qrcode and its PNG encoder (some 60 modules) serve only TOTP enrolment: imported on first use
// so they do not weigh on a cold start.
const qrcode = lazyImport(async () => (await import("qrcode")).default);

/** The otpauth URI (RFC 6238 enrolment) as a PNG data URL an authenticator app can scan. */
export async function otpauthQrCode(otpauthUri: string): Promise<string> {
  return (await qrcode()).toDataURL(otpauthUri, { margin: 1, width: 200 });
}
