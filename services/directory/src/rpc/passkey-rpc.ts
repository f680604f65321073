import type { ServiceImpl } from "@connectrpc/connect";
import { AuthOutcome } from "../../../../gen/iam/directory/v1/authentication_pb.js";
import { PasskeyService, type PasskeyRelyingParty } from "../../../../gen/iam/directory/v1/passkey_pb.js";
import type { PasskeyCredentials, RelyingParty } from "../domain/passkey-credentials.js";

/** Thin handlers: check -> domain -> convert. */
export function passkeyRpc(passkeys: PasskeyCredentials): ServiceImpl<typeof PasskeyService> {
  return {
    async registrationOptions(req) {
      return { optionsJson: await passkeys.registrationOptions(req.realm, req.userId, rpOf(req.rp), req.challenge) };
    },
    async verifyRegistration(req) {
      return passkeys.verifyRegistration(req.realm, req.userId, rpOf(req.rp), req.expectedChallenge, req.responseJson, req.label);
    },
    async authenticationOptions(req) {
      return { optionsJson: await passkeys.authenticationOptions(req.realm, req.userId, rpOf(req.rp), req.challenge) };
    },
    async verifyAuthentication(req) {
      const r = await passkeys.verifyAuthentication(req.realm, req.userId, rpOf(req.rp), req.expectedChallenge, req.responseJson);
      return { ...r, outcome: AuthOutcome[r.outcome] };
    },
    async listPasskeys(req) {
      const list = await passkeys.list(req.realm, req.userId);
      return {
        passkeys: list.map((k) => ({
          id: k._id, credentialId: k.credentialId, label: k.label, transports: k.transports, signCount: BigInt(k.signCount),
          created: BigInt(k.createdAt), lastUsed: BigInt(k.lastUsedAt), backedUp: k.backedUp,
        })),
      };
    },
    async deletePasskey(req) {
      await passkeys.remove(req.realm, req.userId, req.passkeyId);
      return {};
    },
  };
}

function rpOf(rp: PasskeyRelyingParty | undefined): RelyingParty {
  return { rpId: rp?.rpId ?? "", origin: rp?.origin ?? "", rpName: rp?.rpName ?? "" };
}
