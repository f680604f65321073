import type { Response } from "express";
import { FORMAT_VERSION } from "../../../../services/kit/src/realm-transfer/document-format.js";
import { REALM_PART_OWNERS, type RealmPartOwner, type RpcClients } from "../../rpc-clients.js";
import { parsePart, unlessUnimplemented } from "./part-calls.js";

/** The document's top-level sections in the order an export writes them. */
const SECTION_ORDER = [
  "realm", "roles", "clientScopes", "clients", "groups", "organizations", "authenticationFlows", "identityProviders", "identityProviderMappers",
  "userFederationProviders", "samlServiceProviders", "signingKeys", "samlSigningKeys", "webhooks",
] as const;

/** Sections every document carries even when their owner does not serve the transfer contract (an older service). */
const ALWAYS_PRESENT = { identityProviders: [], userFederationProviders: [] } as const;

export interface ExportOptions { includeUsers: boolean; includeSecrets: boolean }

/**
 * Streams a realm's export (spec 4.1): every owner's small sections are read first (so an unknown
 * realm is still a plain 404), then the document is written as it is read, paged sections (users)
 * one page at a time, waiting for the socket to drain between pages: a 100,000-user realm passes
 * through in pages of a few hundred and is never held whole by the gateway or any service.
 */
export async function streamRealmExport(rpc: RpcClients, realm: string, opts: ExportOptions, res: Response): Promise<void> {
  const sections: Record<string, unknown> = { ...ALWAYS_PRESENT };
  const paged: Array<{ owner: RealmPartOwner; section: string }> = [];
  const userFieldOwners: RealmPartOwner[] = [];
  for (const owner of REALM_PART_OWNERS) {
    const part = await unlessUnimplemented(() => rpc.realmParts[owner].exportRealmPart({ realm, section: "", ...opts }));
    if (!part) continue;
    Object.assign(sections, parsePart<Record<string, unknown>>(part.json));
    for (const section of part.pagedSections) paged.push({ owner, section });
    if (part.userFields.length) userFieldOwners.push(owner);
  }
  res.status(200).type("application/json").setHeader("Content-Disposition", `attachment; filename="realm-${realm}.json"`);
  try {
    await write(res, `{"formatVersion":${FORMAT_VERSION},"exportedAt":${JSON.stringify(new Date().toISOString())}`);
    for (const name of SECTION_ORDER) {
      if (sections[name] !== undefined) await write(res, `,${JSON.stringify(name)}:${JSON.stringify(sections[name])}`);
    }
    for (const { owner, section } of paged) {
      await write(res, `,${JSON.stringify(section)}:[`);
      let token = "";
      let first = true;
      do {
        const page = await rpc.realmParts[owner].exportRealmPart({ realm, section, pageToken: token, ...opts });
        const items = parsePart<unknown[]>(page.json);
        if (section === "users" && items.length) await addUserFields(rpc, realm, opts, userFieldOwners, items as UserJson[]);
        if (items.length) {
          await write(res, (first ? "" : ",") + items.map((i) => JSON.stringify(i)).join(","));
          first = false;
        }
        token = page.nextPageToken;
      } while (token);
      await write(res, "]");
    }
    res.end("}");
  } catch (e) {
    // The status is sent: cut the body short, so the client sees an incomplete document rather
    // than a well-formed one missing users.
    res.destroy(e instanceof Error ? e : new Error(String(e)));
  }
}

type UserJson = Record<string, unknown> & { id: string };

/**
 * The fields other owners keep of each user (the broker's federatedIdentities), merged into one
 * page: one call per owner and page, so the page is still the unit held in memory.
 */
async function addUserFields(rpc: RpcClients, realm: string, opts: ExportOptions, owners: RealmPartOwner[], users: UserJson[]): Promise<void> {
  for (const owner of owners) {
    const page = await rpc.realmParts[owner].exportRealmPart({ realm, section: "users", userIds: users.map((u) => u.id), ...opts });
    const fields = parsePart<Record<string, Record<string, unknown>>>(page.json);
    for (const u of users) Object.assign(u, fields[u.id]);
  }
}

function write(res: Response, chunk: string): Promise<void> {
  if (res.write(chunk)) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const done = (err?: Error) => { res.off("drain", ok); res.off("close", closed); if (err) reject(err); else resolve(); };
    const ok = () => done();
    const closed = () => done(new Error("the client closed the connection"));
    res.once("drain", ok);
    res.once("close", closed);
  });
}
