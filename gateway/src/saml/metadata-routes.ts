import type { RouteTable } from "../http/route-table.js";
import type { RpcClients } from "../rpc-clients.js";
import { PublishedDocuments, matchesIfNoneMatch } from "../http/published-documents.js";

/**
 * The realm's SAML 2.0 IdP metadata (spec 4.18; public). It carries the realm's signing
 * certificate, which a rotation replaces at once, so, like the JWK Set, it is revalidated on every
 * use (`no-cache`), a 304 while its strong ETag matches (RFC 9110 section 13.1.2).
 */
export function addSamlMetadataRoutes(table: RouteTable, rpc: RpcClients): void {
  const docs = new PublishedDocuments();
  table.add("GET", "/realms/:realmName/protocol/saml/descriptor", "public", async (req, res) => {
    const realm = String(req.params.realmName);
    const { xml } = await rpc.samlIdp.getMetadata({ realm });
    const doc = docs.prepare(`saml:${realm}`, xml, (x) => x as string);
    res.setHeader("Cache-Control", "no-cache");
    res.setHeader("ETag", doc.etag);
    if (matchesIfNoneMatch(req.get("if-none-match"), doc.etag)) {
      res.status(304).end();
      return;
    }
    // SAML 2.0 metadata section 4.1.1 registers application/samlmetadata+xml.
    res.status(200).type("application/samlmetadata+xml; charset=utf-8").send(doc.body);
  });
}
