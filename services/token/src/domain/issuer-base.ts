import { issuerOf } from "./discovery.js";

/**
 * The `{base_url}` issuers are built from. Requests from the gateway carry its configured value
 * (the source of truth, spec 4.17); work without a request (back-channel logout from a bus
 * consumer) uses the last value seen, else TESSERA_PUBLIC_URL as this service read it.
 */
export class IssuerBase {
  private current: string;

  constructor(configured: string) {
    this.current = configured;
  }

  /** Records the base URL a request carried and returns the realm's issuer. */
  fromRequest(baseUrl: string, realmName: string): string {
    if (/^https?:\/\//.test(baseUrl)) this.current = baseUrl;
    return issuerOf(this.current, realmName);
  }

  issuer(realmName: string): string {
    return issuerOf(this.current, realmName);
  }
}
