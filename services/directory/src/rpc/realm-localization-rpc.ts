import type { ServiceImpl } from "@connectrpc/connect";
import { RealmLocalizationService } from "../../../../gen/iam/directory/v1/realm_localization_pb.js";
import type { RealmLocalization } from "../domain/realm-localization.js";

/** Thin handlers: check -> domain -> convert. */
export function realmLocalizationRpc(texts: RealmLocalization): ServiceImpl<typeof RealmLocalizationService> {
  return {
    async getLocalizationTexts(req) {
      const all = await texts.all(req.realm);
      return { locales: Object.fromEntries(Object.entries(all).map(([locale, t]) => [locale, { texts: t }])) };
    },
    async putLocalizationTexts(req) {
      return { texts: { texts: await texts.put(req.realm, req.locale, req.texts, req.merge) } };
    },
    async deleteLocalizationTexts(req) {
      await texts.delete(req.realm, req.locale, req.key);
      return {};
    },
  };
}
