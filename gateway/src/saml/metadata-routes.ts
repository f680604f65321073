import type { RouteTable } from "../http/route-table.js";
import type { RpcClients } from "../rpc-clients.js";

/** The realm's SAML 2.0 IdP metadata (spec 4.18; public). */
export function addSamlMetadataRoutes(table: RouteTable, rpc: RpcClients): void {
  table.add("GET", "/realms/:realmName/protocol/saml/descriptor", "public", async (req, res) => {
    const { xml } = await rpc.samlIdp.getMetadata({ realm: String(req.params.realmName) });
    // SAML 2.0 metadata section 4.1.1 registers application/samlmetadata+xml.
    res.status(200).type("application/samlmetadata+xml; charset=utf-8").send(xml);
  });
}
