import { auditedWriter } from "../../../kit/src/events/audited-write.js";

/** The directory's audited write (kit events/audited-write.ts): its admin events are the directory's. */
export const auditedWrite = auditedWriter("directory");
