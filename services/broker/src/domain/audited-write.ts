import { auditedWriter } from "../../../kit/src/events/audited-write.js";

/** The broker's audited write (kit events/audited-write.ts): its admin events are the broker's. */
export const auditedWrite = auditedWriter("broker");
