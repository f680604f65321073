import { fromJson, type JsonObject } from "@bufbuild/protobuf";
import type { ServiceImpl } from "@connectrpc/connect";
import { IdpService, SigningKeySchema, type SigningKey } from "../../../../gen/iam/saml/v1/idp_pb.js";
import type { IdpAdmin } from "../domain/idp-admin.js";
import { idpKeyView, type IdpKeyRecord } from "../domain/idp-key.js";

/** Thin handlers: check -> domain -> convert. */
export function idpRpc(admin: IdpAdmin): ServiceImpl<typeof IdpService> {
  return {
    async listSigningKeys(req) {
      return { keys: (await admin.listKeys(req.realm)).map(toProto) };
    },
    async rotateSigningKey(req) {
      return { key: toProto(await admin.rotate(req.realm)) };
    },
    async getMetadata(req) {
      return { xml: await admin.metadata(req.realm) };
    },
  };
}

function toProto(k: IdpKeyRecord): SigningKey {
  return fromJson(SigningKeySchema, idpKeyView(k) as JsonObject);
}
