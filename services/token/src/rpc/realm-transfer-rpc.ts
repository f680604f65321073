import type { ServiceImpl } from "@connectrpc/connect";
import { z } from "zod";
import type { RealmTransferService } from "../../../../gen/iam/kit/v1/realm_transfer_pb.js";
import { IamError } from "../../../kit/src/errors.js";
import { jsonPath, oidcSigningKeySchema } from "../../../kit/src/realm-transfer/document-schema.js";
import { readPart, writePart } from "../../../kit/src/realm-transfer/part-json.js";
import type { RealmResolver } from "../domain/realm-scope.js";
import type { KeyTransfer } from "../domain/key-transfer.js";

const partSchema = z.object({ signingKeys: z.array(oidcSigningKeySchema).optional(), realmName: z.string().optional() });

/** The token service's realm part (kit realm_transfer.proto): `signingKeys`, with includeSecrets only. */
export function realmTransferRpc(realms: RealmResolver, keys: KeyTransfer): ServiceImpl<typeof RealmTransferService> {
  return {
    async exportRealmPart(req) {
      if (req.section !== "") throw IamError.invalid("section", `the token service has no paged section "${req.section}"`);
      const realm = await realms.resolve(req.realm);
      if (!realm) throw IamError.notFound(`realm "${req.realm}"`, "realm_not_found");
      return { json: writePart(req.includeSecrets ? { signingKeys: await keys.export(realm.id) } : {}), nextPageToken: "", pagedSections: [] };
    },
    async validateRealmPart(req) {
      const parsed = partSchema.safeParse(readPart(req.json));
      if (!parsed.success) return { problems: parsed.error.issues.map((i) => ({ path: jsonPath(i.path), message: i.message })) };
      return { problems: await keys.validate(parsed.data.signingKeys ?? [], req.realm) };
    },
    async importRealmPart(req) {
      const parsed = partSchema.safeParse(readPart(req.json));
      if (!parsed.success) throw IamError.invalid("json", "signingKeys do not match the export format (validate first)");
      if (!req.realmId) throw IamError.invalid("realmId", "realmId is required");
      await keys.import(req.realmId, req.realm, parsed.data.signingKeys ?? []);
      return { notes: [] };
    },
  };
}
