import { openStore } from "../store/open-store.js";
import type { Store } from "../store/port.js";
import { idempotent } from "./idempotent.js";
import { MemorySeenEvents } from "./memory-seen-events.js";
import type { BusMessage } from "./port.js";
import { StoreSeenEvents, type ProcessedEventDoc } from "./store-seen-events.js";

const message = (id: string): BusMessage => ({ id, subject: "iam.x.v1.a.created", time: 1, payload: new Uint8Array() });

describe("idempotent", () => {
  it("runs the effect once per event id", async () => {
    const effects: string[] = [];
    const handler = idempotent(new MemorySeenEvents(), async (m) => {
      effects.push(m.id);
    });
    await handler(message("e1"));
    await handler(message("e1"));
    await handler(message("e2"));
    expect(effects).toEqual(["e1", "e2"]);
  });

  it("does not mark an event whose handler threw, so the retry runs it again", async () => {
    let calls = 0;
    const handler = idempotent(new MemorySeenEvents(), async () => {
      calls++;
      if (calls === 1) throw new Error("transient");
    });
    await expect(handler(message("e1"))).rejects.toThrow("transient");
    await handler(message("e1"));
    await handler(message("e1"));
    expect(calls).toBe(2);
  });
});

// Against the real sqlite store (:memory:, an injected clock, no background sweeper).
describe("StoreSeenEvents", () => {
  let now = 5000;
  const clock = { now: () => now };
  let store: Store;

  beforeEach(async () => {
    now = 5000;
    store = await openStore({ kind: "sqlite", path: ":memory:", clock, sweepIntervalMs: 0 });
  });
  afterEach(async () => {
    await store.close();
  });

  it("declares processed_events as a ttl collection and stores scoped ids with an expiry", async () => {
    const seen = await StoreSeenEvents.open(store, { scope: "token-user-deleted", ttlMs: 1000, clock });
    expect(await seen.has("e1")).toBe(false);
    expect(await seen.mark("e1")).toBe(true);
    expect(await seen.has("e1")).toBe(true);
    const docs = await store.collection<ProcessedEventDoc>({ name: "processed_events", ttl: true });
    expect(await docs.get("token-user-deleted:e1")).toEqual({
      _id: "token-user-deleted:e1", scope: "token-user-deleted", eventId: "e1", expiresAt: 6000,
    });
    // A ttl collection: once the clock passes expiresAt, the id is forgotten (and may be marked again).
    now = 5999;
    expect(await seen.has("e1")).toBe(true);
    now = 6000;
    expect(await seen.has("e1")).toBe(false);
    expect(await docs.get("token-user-deleted:e1")).toBeNull();
  });

  it("treats alreadyExists as processed, and keeps scopes apart", async () => {
    const a = await StoreSeenEvents.open(store, { scope: "a" });
    const b = await StoreSeenEvents.open(store, { scope: "b" });
    expect(await a.mark("e1")).toBe(true);
    expect(await a.mark("e1")).toBe(false);
    expect(await b.has("e1")).toBe(false);
    expect(await b.mark("e1")).toBe(true);
  });

  it("passes other store failures through", async () => {
    const seen = await StoreSeenEvents.open(store, { scope: "a" });
    await store.close(); // the store is down: better-sqlite3 refuses every statement
    await expect(seen.mark("e1")).rejects.toThrow("The database connection is not open");
  });
});
