import type { Collection, Doc, FieldOps } from "../../../kit/src/store/port.js";

/**
 * Inserts an event under its event id; a redelivered event hits the primary key and is not stored
 * again (returns false). This is what makes the audit consumers idempotent.
 */
export async function insertOnce<T extends Doc>(events: Collection<T>, event: T): Promise<boolean> {
  try {
    await events.insert(event);
    return true;
  } catch (e) {
    if ((e as { code?: string }).code === "alreadyExists") return false;
    throw e;
  }
}

/** The `time` condition of an event query, or undefined when neither bound is given. */
export function timeRange(dateFrom?: number, dateTo?: number): FieldOps | undefined {
  if (dateFrom === undefined && dateTo === undefined) return undefined;
  return {
    ...(dateFrom !== undefined ? { $gte: dateFrom } : {}),
    ...(dateTo !== undefined ? { $lte: dateTo } : {}),
  };
}
