import { IamError } from "../../../kit/src/errors.js";
import type { IdentityProviderMapperDoc, Problem } from "../../../kit/src/realm-transfer/document-schema.js";
import { checkMapperInput, type IdpMapperRecord } from "./idp-mapper.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The document's mappers against the rules of the Admin API's create: a known type with its
 * config, a provider of the document, a name unique per provider and an id used once.
 */
export function mapperProblems(docs: IdentityProviderMapperDoc[], aliases: Map<string, number>): Problem[] {
  const problems: Problem[] = [];
  const names = new Map<string, number>();
  const ids = new Map<string, number>();
  for (const [i, doc] of docs.entries()) {
    const p = `$.identityProviderMappers[${i}]`;
    if (!aliases.has(doc.identityProviderAlias)) {
      problems.push({ path: `${p}.identityProviderAlias`, message: `no identity provider "${doc.identityProviderAlias}" in identityProviders` });
    }
    try {
      checkMapperInput(doc, { alias: doc.identityProviderAlias, id: doc.id });
    } catch (e) {
      if (!(e instanceof IamError)) throw e;
      problems.push({ path: e.field ? `${p}.${e.field}` : p, message: e.message });
    }
    const key = `${doc.identityProviderAlias}\u0000${doc.name.trim()}`;
    if (names.has(key)) problems.push({ path: `${p}.name`, message: `name "${doc.name}" is also used at $.identityProviderMappers[${names.get(key)}]` });
    else names.set(key, i);
    // The Admin API addresses a mapper by a UUID (Keycloak's ids are UUIDs too).
    if (!UUID.test(doc.id)) problems.push({ path: `${p}.id`, message: "id must be a UUID" });
    if (ids.has(doc.id)) problems.push({ path: `${p}.id`, message: `id is also used at $.identityProviderMappers[${ids.get(doc.id)}]` });
    else ids.set(doc.id, i);
  }
  return problems;
}

/** A validated document mapper as stored under the staging realm; `createdAt` keeps the document's order. */
export function mapperRecord(doc: IdentityProviderMapperDoc, realmId: string, createdAt: number): IdpMapperRecord {
  const checked = checkMapperInput(doc, { alias: doc.identityProviderAlias, id: doc.id });
  return { _id: doc.id, realmId, alias: doc.identityProviderAlias, ...checked, createdAt };
}
