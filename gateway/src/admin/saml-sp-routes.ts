import { toJson } from "@bufbuild/protobuf";
import {
  ServiceProviderInputSchema, ServiceProviderSchema, type ServiceProvider,
} from "../../../gen/iam/saml/v1/service_provider_pb.js";
import { SigningKeySchema, type SigningKey } from "../../../gen/iam/saml/v1/idp_pb.js";
import type { RouteTable } from "../http/route-table.js";
import { parseBody } from "../http/json-input.js";
import type { RpcClients } from "../rpc-clients.js";

/** SAML service provider Admin API (spec 2.11, 4.12) and the realm's SAML signing keys. */
export function addSamlSpRoutes(table: RouteTable, rpc: RpcClients): void {
  const base = "/admin/realms/:realmName/saml-service-providers";
  const realmOf = (req: { params: Record<string, unknown> }) => String(req.params.realmName);
  table
    .add("POST", base, "admin", async (req) => {
      const serviceProvider = parseBody(ServiceProviderInputSchema, req.body, ["attributeStatementsPresent"]);
      const res = await rpc.samlServiceProviders.registerServiceProvider({ realm: realmOf(req), serviceProvider });
      return { status: 201, body: spJson(res.serviceProvider) };
    })
    .add("GET", base, "admin", async (req) => {
      const res = await rpc.samlServiceProviders.listServiceProviders({ realm: realmOf(req) });
      return { status: 200, body: res.serviceProviders.map(spJson) };
    })
    .add("GET", `${base}/:id`, "admin", async (req) => {
      const res = await rpc.samlServiceProviders.getServiceProvider({ realm: realmOf(req), id: String(req.params.id) });
      return { status: 200, body: spJson(res.serviceProvider) };
    })
    .add("PUT", `${base}/:id`, "admin", async (req) => {
      const serviceProvider = parseBody(ServiceProviderInputSchema, req.body, ["attributeStatementsPresent"]);
      serviceProvider.attributeStatementsPresent = Object.prototype.hasOwnProperty.call(req.body, "attributeStatements");
      const res = await rpc.samlServiceProviders.updateServiceProvider({
        realm: realmOf(req), id: String(req.params.id), serviceProvider,
      });
      return { status: 200, body: spJson(res.serviceProvider) };
    })
    .add("DELETE", `${base}/:id`, "admin", async (req) => {
      await rpc.samlServiceProviders.deleteServiceProvider({ realm: realmOf(req), id: String(req.params.id) });
      return { status: 204 };
    })
    .add("GET", "/admin/realms/:realmName/saml-keys", "admin", async (req) => {
      const res = await rpc.samlIdp.listSigningKeys({ realm: realmOf(req) });
      return { status: 200, body: res.keys.map(keyJson) };
    })
    .add("POST", "/admin/realms/:realmName/saml-keys/rotate", "admin", async (req) => {
      const res = await rpc.samlIdp.rotateSigningKey({ realm: realmOf(req) });
      return { status: 200, body: keyJson(res.key) };
    });
}

export function spJson(sp: ServiceProvider | undefined): Record<string, unknown> {
  if (!sp) return {};
  const json = toJson(ServiceProviderSchema, sp, { alwaysEmitImplicit: true }) as Record<string, unknown>;
  // Absent rather than empty when not set.
  if (json.sloUrl === "") delete json.sloUrl;
  if (json.certificate === "") delete json.certificate;
  return json;
}

function keyJson(k: SigningKey | undefined): Record<string, unknown> {
  return k ? (toJson(SigningKeySchema, k, { alwaysEmitImplicit: true }) as Record<string, unknown>) : {};
}
