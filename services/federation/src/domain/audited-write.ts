import { auditedWriter } from "../../../kit/src/events/audited-write.js";

/** The federation service's audited write (kit events/audited-write.ts): its admin events are the federation service's. */
export const auditedWrite = auditedWriter("federation");
