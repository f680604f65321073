import type { ServiceImpl } from "@connectrpc/connect";
import { z } from "zod";
import type { RealmTransferService } from "../../../../gen/iam/kit/v1/realm_transfer_pb.js";
import { IamError } from "../../../kit/src/errors.js";
import { jsonPath, webhookSchema } from "../../../kit/src/realm-transfer/document-schema.js";
import { readPart, writePart } from "../../../kit/src/realm-transfer/part-json.js";
import type { RealmLookup } from "../domain/realm-ref.js";
import type { WebhookTransfer } from "../domain/webhook-transfer.js";

const partSchema = z.object({ webhooks: z.array(webhookSchema).optional() });

/** The audit service's realm part (kit realm_transfer.proto): the realm's webhooks. */
export function realmTransferRpc(realms: RealmLookup, transfer: WebhookTransfer): ServiceImpl<typeof RealmTransferService> {
  return {
    async exportRealmPart(req) {
      if (req.section !== "") throw IamError.invalid("section", `the audit service has no paged section "${req.section}"`);
      const realm = await realms.get(req.realm);
      return { json: writePart(await transfer.export(realm.id, req.includeSecrets)), nextPageToken: "", pagedSections: [] };
    },
    async validateRealmPart(req) {
      const parsed = partSchema.safeParse(readPart(req.json));
      if (!parsed.success) return { problems: parsed.error.issues.map((i) => ({ path: jsonPath(i.path), message: i.message })) };
      return { problems: await transfer.validate(parsed.data, req.realm) };
    },
    async importRealmPart(req) {
      const parsed = partSchema.safeParse(readPart(req.json));
      if (!parsed.success) throw IamError.invalid("json", "the webhooks section does not match the export format (validate first)");
      if (!req.realmId) throw IamError.invalid("realmId", "realmId is required");
      return { notes: await transfer.import(req.realmId, req.realm, parsed.data) };
    },
  };
}
