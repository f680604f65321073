import { createHmac, hkdfSync, randomBytes } from "node:crypto";
import { NAME_ID_FORMATS } from "../domain/service-provider.js";
import { SAML_REASONS, samlInvalid } from "./saml-errors.js";
import type { SamlUser } from "./user-profile.js";

export interface NameIdInput {
  format: string;
  user: SamlUser;
  spEntityId: string;
  realmId: string;
  /** Secret material of the realm (its IdP private key PEM), the root of pairwise ids. */
  realmSecret: string;
}

/**
 * The Subject's NameID in the SP's format (SAML 2.0 core 8.3):
 *   emailAddress  the user's email (8.3.2)
 *   persistent    an opaque pairwise id, stable per user and SP and unrelated across SPs (8.3.7):
 *                 HMAC-SHA256(user id, SP entityID) under a key derived (HKDF) from the realm's
 *                 key, so nothing is stored
 *   transient     random per response (8.3.8)
 *   unspecified   the username (8.3.1)
 */
export function nameIdFor(input: NameIdInput): string {
  switch (input.format) {
    case NAME_ID_FORMATS.emailAddress:
      if (!input.user.email) throw samlInvalid(SAML_REASONS.nameIdUnavailable, "the user has no email address for the SP's NameID format");
      return input.user.email;
    case NAME_ID_FORMATS.persistent: {
      const key = Buffer.from(hkdfSync("sha256", input.realmSecret, input.realmId, "tessera saml persistent nameid", 32));
      return createHmac("sha256", key).update(input.user.id).update("\0").update(input.spEntityId).digest("base64url");
    }
    case NAME_ID_FORMATS.transient:
      return `_${randomBytes(20).toString("hex")}`;
    default:
      return input.user.username;
  }
}
