import { ALLOWED_NAME_ID_FORMATS } from "./service-provider.js";
import { lazyImport } from "../../../kit/src/runtime/lazy-import.js";

// samlify (with its XML and RSA libraries, about 50 modules) serves only the metadata document:
// imported on its first request rather than at start (faster cold start).
const samlifyLib = lazyImport(async () => (await import("samlify")).default);

const REDIRECT = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect";
const POST = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST";

/**
 * Children of IDPSSODescriptor in schema order (SAML 2.0 metadata section 2.4.3, extending
 * SSODescriptorType of section 2.4.2): KeyDescriptor, SingleLogoutService, NameIDFormat,
 * SingleSignOnService.
 */
const ELEMENTS_ORDER = ["KeyDescriptor", "SingleLogoutService", "NameIDFormat", "SingleSignOnService"];

export interface IdpMetadataInput {
  /** {publicUrl}/realms/<realm>: the IdP's entityID (metadata section 2.3.2) and Issuer. */
  entityId: string;
  /** {publicUrl}/realms/<realm>/protocol/saml: SSO and SLO over HTTP-Redirect and HTTP-POST. */
  protocolUrl: string;
  /** PEM certificates of the published signing keys, active first. */
  signingCertificates: string[];
  /**
   * WantAuthnRequestsSigned (metadata 2.4.3) is one flag for the whole IdP while Tessera decides per
   * SP; it is true only when every enabled SP of the realm requires signed requests.
   */
  wantAuthnRequestsSigned?: boolean;
}

export function idpEntityId(publicUrl: string, realm: string): string {
  return `${publicUrl.replace(/\/+$/, "")}/realms/${encodeURIComponent(realm)}`;
}

/**
 * The realm's IdP metadata: an EntityDescriptor with one IDPSSODescriptor (metadata sections 2.3.2
 * and 2.4.3). Built with samlify's metadata builder (the `xml` serializer escapes every attribute
 * and text value), never by string templates.
 */
export async function buildIdpMetadata(input: IdpMetadataInput): Promise<string> {
  const samlify = await samlifyLib();
  const meta = samlify.IdPMetadata({
    entityID: input.entityId,
    signingCert: input.signingCertificates,
    wantAuthnRequestsSigned: input.wantAuthnRequestsSigned ?? false,
    nameIDFormat: [...ALLOWED_NAME_ID_FORMATS],
    singleSignOnService: [
      { Binding: REDIRECT, Location: input.protocolUrl },
      { Binding: POST, Location: input.protocolUrl },
    ],
    singleLogoutService: [
      { Binding: REDIRECT, Location: input.protocolUrl },
      { Binding: POST, Location: input.protocolUrl },
    ],
    elementsOrder: ELEMENTS_ORDER,
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n${meta.getMetadata()}`;
}
