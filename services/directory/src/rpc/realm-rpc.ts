import { fromJson, type JsonObject } from "@bufbuild/protobuf";
import type { ServiceImpl } from "@connectrpc/connect";
import {
  RealmService, RealmSchema, type Realm, type RealmInput, type RealmUpdate,
} from "../../../../gen/iam/directory/v1/realm_pb.js";
import { IamError } from "../../../kit/src/errors.js";
import type { RealmAdmin } from "../domain/realm-admin.js";
import type { RealmCreateInput, RealmRecord, RealmUpdateInput } from "../domain/realm.js";
import { realmView } from "../domain/realm-view.js";
import { THEME_NAMES } from "../domain/themes.js";

/** Thin handlers: check -> domain -> convert. */
export function realmRpc(admin: RealmAdmin): ServiceImpl<typeof RealmService> {
  return {
    async createRealm(req) {
      if (!req.realm) throw IamError.invalid("realm", "realm is required");
      return { realm: toProto(await admin.create(createInput(req.realm))) };
    },
    async listRealms(req) {
      const realms = req.paged ? await admin.page(req.search, req.first, req.max) : await admin.list();
      return { realms: realms.map(toProto) };
    },
    async getRealm(req) {
      // From the store unless the caller keeps nothing (proto GetRealmRequest.allow_cached).
      return { realm: toProto(await (req.allowCached ? admin.get(req.name) : admin.current(req.name))) };
    },
    async updateRealm(req) {
      return { realm: toProto(await admin.update(req.name, updateInput(req.update))) };
    },
    async deleteRealm(req) {
      return { realm: toProto(await admin.delete(req.name)) };
    },
    async listThemes() {
      return { themes: [...THEME_NAMES] };
    },
  };
}

export function toProto(r: RealmRecord): Realm {
  return fromJson(RealmSchema, realmView(r) as unknown as JsonObject);
}

function createInput(m: RealmInput): RealmCreateInput {
  const { $typeName: _t, theme, supportedLocales, ...rest } = m;
  const fields = withPolicyLists(rest);
  return { ...definedOnly(fields), ...(Object.keys(theme).length ? { theme } : {}), ...(supportedLocales.length ? { supportedLocales } : {}) };
}

function updateInput(m: RealmUpdate | undefined): RealmUpdateInput {
  if (!m) return {};
  const { $typeName: _t, theme, themePresent, supportedLocales, supportedLocalesPresent, ...rest } = m;
  const fields = withPolicyLists(rest);
  return { ...definedOnly(fields), ...(themePresent ? { theme } : {}), ...(supportedLocalesPresent ? { supportedLocales } : {}) };
}

/** The WebAuthn policy's lists as sent, or undefined when the body did not name them (proto has no list presence). */
function withPolicyLists<T extends PolicyLists>(m: T) {
  const {
    webAuthnPolicyPasswordlessSignatureAlgorithms: algorithms, webAuthnPolicyPasswordlessSignatureAlgorithmsPresent: algorithmsSent,
    webAuthnPolicyPasswordlessAcceptableAaguids: aaguids, webAuthnPolicyPasswordlessAcceptableAaguidsPresent: aaguidsSent,
    webAuthnPolicyPasswordlessExtraOrigins: origins, webAuthnPolicyPasswordlessExtraOriginsPresent: originsSent, ...rest
  } = m;
  return {
    ...rest,
    webAuthnPolicyPasswordlessSignatureAlgorithms: algorithmsSent ? algorithms : undefined,
    webAuthnPolicyPasswordlessAcceptableAaguids: aaguidsSent ? aaguids : undefined,
    webAuthnPolicyPasswordlessExtraOrigins: originsSent ? origins : undefined,
  };
}

type PolicyLists = Pick<RealmInput, "webAuthnPolicyPasswordlessSignatureAlgorithms" | "webAuthnPolicyPasswordlessSignatureAlgorithmsPresent"
  | "webAuthnPolicyPasswordlessAcceptableAaguids" | "webAuthnPolicyPasswordlessAcceptableAaguidsPresent"
  | "webAuthnPolicyPasswordlessExtraOrigins" | "webAuthnPolicyPasswordlessExtraOriginsPresent">;

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

