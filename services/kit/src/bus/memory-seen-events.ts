import type { SeenEvents } from "./idempotent.js";

/** SeenEvents in a Map: for tests and throwaway consumers; forgets everything on restart. */
export class MemorySeenEvents implements SeenEvents {
  private readonly ids = new Set<string>();

  async has(eventId: string): Promise<boolean> {
    return this.ids.has(eventId);
  }

  async mark(eventId: string): Promise<boolean> {
    if (this.ids.has(eventId)) return false;
    this.ids.add(eventId);
    return true;
  }
}
