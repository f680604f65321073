import type { ServiceImpl } from "@connectrpc/connect";
import type { RealmTransferService } from "../../../../gen/iam/kit/v1/realm_transfer_pb.js";
import type { RealmImportService } from "../../../../gen/iam/directory/v1/realm_import_pb.js";
import { IamError } from "../../../kit/src/errors.js";
import { readPart, writePart } from "../../../kit/src/realm-transfer/part-json.js";
import { authenticationFlowSchema, clientSchema, clientScopeSchema, groupSchema, organizationSchema, roleSchema, userSchema } from "../../../kit/src/realm-transfer/document-schema.js";
import { z } from "zod";
import type { RealmLookup } from "../domain/realm-lookup.js";
import type { RealmExport } from "../domain/realm-export.js";
import type { RealmImportJournal } from "../domain/realm-import.js";
import type { RealmImportWriter } from "../domain/realm-import-writer.js";
import type { PluginRegistry } from "../../../kit/src/plugins/plugin-registry.js";
import { checkDirectoryPart } from "../domain/realm-import-check.js";
import { toProto } from "./realm-rpc.js";
import type { RealmRecord } from "../domain/realm.js";

const configurationSchema = z.object({
  roles: z.array(roleSchema), clientScopes: z.array(clientScopeSchema), clients: z.array(clientSchema), groups: z.array(groupSchema),
  organizations: z.array(organizationSchema).optional(),
  authenticationFlows: z.array(authenticationFlowSchema).optional(),
});
const usersSchema = z.array(userSchema);

export interface RealmTransferDeps {
  lookup: RealmLookup;
  exporter: RealmExport;
  journal: RealmImportJournal;
  writer: RealmImportWriter;
  /** Seeds the realm's built-in roles and scopes if it never used them, so the export holds them. */
  ensureDefaults: (realm: RealmRecord) => Promise<void>;
  /** An imported plugin mapper is accepted while its plugin is loaded. */
  plugins?: PluginRegistry;
}

/** The directory's realm part (kit realm_transfer.proto): thin handlers over the domain. */
export function realmTransferRpc(d: RealmTransferDeps): ServiceImpl<typeof RealmTransferService> {
  return {
    async exportRealmPart(req) {
      const realm = await d.lookup.current(req.realm);
      if (req.section === "") {
        await d.ensureDefaults(realm);
        return { json: writePart(await d.exporter.sections(realm, req.includeSecrets)), pagedSections: req.includeUsers ? ["users"] : [], nextPageToken: "" };
      }
      if (req.section !== "users") throw IamError.invalid("section", `the directory has no paged section "${req.section}"`);
      const page = await d.exporter.users(realm, req.pageToken, req.includeSecrets);
      return { json: writePart(page.users), nextPageToken: page.last, pagedSections: [] };
    },
    async validateRealmPart(req) {
      const { part, problems, ids } = checkDirectoryPart(readPart(req.json), d.plugins);
      if (part) problems.push(...(await d.writer.collisions(ids, part.realm.name)));
      return { problems };
    },
    async importRealmPart(req) {
      await d.journal.heartbeat(req.realm, req.realmId);
      const part = readPart(req.json);
      const notes = [];
      if (part.clients !== undefined) {
        const parsed = configurationSchema.safeParse(part);
        if (!parsed.success) throw IamError.invalid("json", "the realm configuration does not match the export format (validate first)");
        notes.push(...(await d.writer.writeConfiguration(req.realmId, parsed.data)));
      }
      if (part.users !== undefined) {
        const parsed = usersSchema.safeParse(part.users);
        if (!parsed.success) throw IamError.invalid("json", "the users do not match the export format (validate first)");
        await d.writer.writeUsers(req.realmId, parsed.data);
      }
      return { notes };
    },
  };
}

export function realmImportRpc(d: RealmTransferDeps): ServiceImpl<typeof RealmImportService> {
  return {
    async beginRealmImport(req) {
      const settings = JSON.parse(new TextDecoder().decode(req.realmJson)) as unknown;
      return { realmId: await d.journal.begin(settings, req.overwrite) };
    },
    async heartbeatRealmImport(req) {
      await d.journal.heartbeat(req.realm, req.realmId);
      return {};
    },
    async finishRealmImport(req) {
      return { realm: toProto(await d.journal.finish(req.realm, req.realmId)) };
    },
    async abortRealmImport(req) {
      await d.journal.abort(req.realm, req.realmId);
      return {};
    },
  };
}
