import { auditedWriter } from "../../../kit/src/events/audited-write.js";

/** The saml service's audited write (kit events/audited-write.ts): its admin events are the saml service's. */
export const auditedWrite = auditedWriter("saml");
