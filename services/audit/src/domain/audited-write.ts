import { auditedWriter } from "../../../kit/src/events/audited-write.js";

/** The audit service's audited write (kit events/audited-write.ts): webhook changes are its admin events. */
export const auditedWrite = auditedWriter("audit");
