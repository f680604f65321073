import { arrayOf, json, noContent, type Operation } from "./operation.js";

const L = "/admin/realms/:realmName/localization";
const TEXTS = { type: "object", additionalProperties: { type: "string" }, description: "Message key -> text." };
const PATH_PARAMS = { locale: "A BCP 47 language tag (en, de, pt-BR).", key: "A message key (loginAccountTitle, doLogIn...)." };

/** Realm localization texts (Keycloak's RealmLocalizationResource; docs/localization.md). */
export function localizationOperations(): Operation[] {
  return [
    { id: "listLocalizationLocales", method: "GET", path: L, auth: "admin", tag: "Localization", summary: "List the locales that have text overrides",
      responses: { 200: json("Locales, sorted.", arrayOf({ type: "string" })) } },
    { id: "getLocalizationTexts", method: "GET", path: `${L}/:locale`, auth: "admin", tag: "Localization", summary: "Get a locale's text overrides",
      pathParams: PATH_PARAMS, responses: { 200: json("The overrides ({} when none).", TEXTS) } },
    { id: "replaceLocalizationTexts", method: "PUT", path: `${L}/:locale`, auth: "admin", tag: "Localization", summary: "Replace a locale's text overrides",
      pathParams: PATH_PARAMS, body: { schema: TEXTS, required: true }, responses: { 204: noContent() } },
    { id: "mergeLocalizationTexts", method: "POST", path: `${L}/:locale`, auth: "admin", tag: "Localization", summary: "Add or change some of a locale's text overrides",
      pathParams: PATH_PARAMS, body: { schema: TEXTS, required: true }, responses: { 204: noContent() } },
    { id: "deleteLocalizationTexts", method: "DELETE", path: `${L}/:locale`, auth: "admin", tag: "Localization", summary: "Delete a locale's text overrides",
      pathParams: PATH_PARAMS, responses: { 204: noContent() } },
    { id: "getLocalizationText", method: "GET", path: `${L}/:locale/:key`, auth: "admin", tag: "Localization", summary: "Get one text override",
      pathParams: PATH_PARAMS, responses: { 200: { description: "The text.", schema: { type: "string" }, media: "text/plain" } } },
    { id: "putLocalizationText", method: "PUT", path: `${L}/:locale/:key`, auth: "admin", tag: "Localization", summary: "Set one text override",
      pathParams: PATH_PARAMS, body: { schema: { type: "string" }, media: "text/plain", required: true }, responses: { 204: noContent() } },
    { id: "deleteLocalizationText", method: "DELETE", path: `${L}/:locale/:key`, auth: "admin", tag: "Localization", summary: "Delete one text override",
      pathParams: PATH_PARAMS, responses: { 204: noContent() } },
  ];
}
