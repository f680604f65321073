import type { ServiceImpl } from "@connectrpc/connect";
import { z } from "zod";
import type { RealmTransferService } from "../../../../gen/iam/kit/v1/realm_transfer_pb.js";
import { IamError } from "../../../kit/src/errors.js";
import { federatedIdentitySchema, identityProviderMapperSchema, identityProviderSchema, jsonPath } from "../../../kit/src/realm-transfer/document-schema.js";
import { readPart, writePart } from "../../../kit/src/realm-transfer/part-json.js";
import type { RealmLookup } from "../domain/realm-ref.js";
import type { BrokerTransfer } from "../domain/broker-transfer.js";

/** The broker's sections, and its field of each user (`users: [{id, federatedIdentities}]`). */
const partSchema = z.object({
  identityProviders: z.array(identityProviderSchema).optional(),
  identityProviderMappers: z.array(identityProviderMapperSchema).optional(),
  users: z.array(z.object({ id: z.string().min(1).max(128), federatedIdentities: z.array(federatedIdentitySchema) })).optional(),
});

/** The broker's realm part (kit realm_transfer.proto): thin handlers over BrokerTransfer. */
export function realmTransferRpc(realms: RealmLookup, transfer: BrokerTransfer): ServiceImpl<typeof RealmTransferService> {
  return {
    async exportRealmPart(req) {
      const realm = await realms.get(req.realm);
      if (req.section === "") {
        const identityProviders = await transfer.exportProviders(realm.id, req.includeSecrets);
        const identityProviderMappers = await transfer.exportMappers(realm.id);
        return { json: writePart({ identityProviders, identityProviderMappers }), nextPageToken: "", pagedSections: [], userFields: req.includeUsers ? ["federatedIdentities"] : [] };
      }
      if (req.section !== "users") throw IamError.invalid("section", `the broker has no section "${req.section}"`);
      return { json: writePart(await transfer.exportLinks(realm.id, req.userIds)), nextPageToken: "", pagedSections: [], userFields: [] };
    },
    async validateRealmPart(req) {
      const parsed = partSchema.safeParse(readPart(req.json));
      if (!parsed.success) return { problems: parsed.error.issues.map((i) => ({ path: jsonPath(i.path), message: i.message })) };
      return { problems: await transfer.validate(parsed.data, req.realm) };
    },
    async importRealmPart(req) {
      const parsed = partSchema.safeParse(readPart(req.json));
      if (!parsed.success) throw IamError.invalid("json", "the broker's sections do not match the export format (validate first)");
      if (!req.realmId) throw IamError.invalid("realmId", "realmId is required");
      return { notes: await transfer.import(req.realmId, req.realm, parsed.data, req.offset) };
    },
  };
}
