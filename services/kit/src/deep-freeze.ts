/**
 * Freezes an object graph in place (typed arrays are left alone: they cannot be frozen). Used where
 * one object is handed to many readers that must not change it: messages on the in-process RPC hop
 * under TESSERA_FREEZE_RPC_MESSAGES, and records served from a read cache.
 */
export function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== "object" || Object.isFrozen(value) || ArrayBuffer.isView(value)) return value;
  Object.freeze(value);
  for (const v of Object.values(value)) deepFreeze(v);
  return value;
}
