import type { Problem } from "../../../../services/kit/src/realm-transfer/document-schema.js";

/** A Keycloak realm representation names its realm in a string `realm`; Tessera's document holds an object there. */
export function isKeycloakRealm(body: object): boolean {
  return typeof (body as Record<string, unknown>).realm === "string" && (body as Record<string, unknown>).formatVersion === undefined;
}

export function fromKeycloak(kc: Record<string, unknown>, report: Problem[]): unknown {
  void report;
  return kc;
}
