import { jsonTimestamp } from "../../../kit/src/json-timestamp.js";
/**
 * A SAML service provider registered in a realm (spec 2.11). Stored by the saml service; the
 * certificate is the SP's public signing certificate, kept as given.
 */
export interface CertificateInfo {
  subject: string;
  /** Epoch ms. */
  notAfter: number;
  /** Upper-case hex pairs separated by colons, as openssl prints it. */
  fingerprintSha256: string;
}

export interface ServiceProviderRecord {
  [key: string]: unknown;
  _id: string;
  realmId: string;
  realm: string;
  entityId: string;
  name: string;
  enabled: boolean;
  acsUrl: string;
  sloUrl?: string;
  certificate?: string;
  certificateInfo?: CertificateInfo;
  nameIdFormat: string;
  signAssertions: boolean;
  signResponses: boolean;
  attributeStatements: Record<string, string>;
  /**
   * WantAuthnRequestsSigned per SP (SAML 2.0 metadata 2.4.4): when absent, requests must be signed
   * as soon as the SP has a certificate; false lets a certificate-holding SP send unsigned ones.
   */
  requireSignedRequests?: boolean;
  createdAt: number;
  updatedAt: number;
}

/** What register and update receive; on update only the fields present change. */
export interface ServiceProviderInput {
  entityId?: string;
  name?: string;
  enabled?: boolean;
  acsUrl?: string;
  sloUrl?: string;
  certificate?: string;
  nameIdFormat?: string;
  signAssertions?: boolean;
  signResponses?: boolean;
  attributeStatements?: Record<string, string>;
  requireSignedRequests?: boolean;
}

/** NameID format URNs (SAML 2.0 core section 8.3). */
export const NAME_ID_FORMATS = {
  emailAddress: "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress",
  unspecified: "urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified",
  persistent: "urn:oasis:names:tc:SAML:2.0:nameid-format:persistent",
  transient: "urn:oasis:names:tc:SAML:2.0:nameid-format:transient",
} as const;

export const ALLOWED_NAME_ID_FORMATS: readonly string[] = [
  NAME_ID_FORMATS.emailAddress,
  NAME_ID_FORMATS.persistent,
  NAME_ID_FORMATS.transient,
  NAME_ID_FORMATS.unspecified,
];

export const SP_DEFAULTS = {
  enabled: true,
  nameIdFormat: NAME_ID_FORMATS.emailAddress,
  signAssertions: true,
  signResponses: true,
} as const;

/**
 * Whether the SP's requests must be signed (metadata 2.4.4 WantAuthnRequestsSigned, per SP): only
 * with a certificate to verify them, and then by default.
 */
export function requiresSignedRequests(sp: Pick<ServiceProviderRecord, "certificate" | "requireSignedRequests">): boolean {
  return !!sp.certificate && sp.requireSignedRequests !== false;
}

/** The JSON shape returned by the Admin API (and carried in admin events). */
export function serviceProviderView(sp: ServiceProviderRecord): Record<string, unknown> {
  return {
    id: sp._id,
    entityId: sp.entityId,
    name: sp.name,
    enabled: sp.enabled,
    acsUrl: sp.acsUrl,
    ...(sp.sloUrl ? { sloUrl: sp.sloUrl } : {}),
    ...(sp.certificate ? { certificate: sp.certificate } : {}),
    ...(sp.certificateInfo ? {
      certificateInfo: {
        subject: sp.certificateInfo.subject,
        notAfter: jsonTimestamp(sp.certificateInfo.notAfter),
        fingerprintSha256: sp.certificateInfo.fingerprintSha256,
      },
    } : {}),
    nameIdFormat: sp.nameIdFormat,
    signAssertions: sp.signAssertions,
    signResponses: sp.signResponses,
    attributeStatements: sp.attributeStatements,
    requireSignedRequests: requiresSignedRequests(sp),
    createdAt: jsonTimestamp(sp.createdAt),
    updatedAt: jsonTimestamp(sp.updatedAt),
  };
}
