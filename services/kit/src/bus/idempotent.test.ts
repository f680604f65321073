import { IamError } from "../errors.js";
import type { Collection, CollectionSpec, Doc, Store } from "../store/port.js";
import { idempotent } from "./idempotent.js";
import { MemorySeenEvents } from "./memory-seen-events.js";
import type { BusMessage } from "./port.js";
import { StoreSeenEvents } from "./store-seen-events.js";

const message = (id: string): BusMessage => ({ id, subject: "iam.x.v1.a.created", time: 1, payload: new Uint8Array() });

/**
 * Just enough of the store port for StoreSeenEvents: insert with a unique `_id` (alreadyExists on
 * a repeat, as both real adapters do) and get. The adapters' own contract suite covers the rest.
 */
function fakeStore(): { store: Store; specs: CollectionSpec[]; docs: Map<string, Doc> } {
  const docs = new Map<string, Doc>();
  const specs: CollectionSpec[] = [];
  const collection = {
    name: "processed_events",
    insert: async (doc: Doc) => {
      if (docs.has(doc._id)) throw IamError.conflict("duplicate", "_id", "already_exists");
      docs.set(doc._id, doc);
    },
    get: async (id: string) => docs.get(id) ?? null,
  } as unknown as Collection<Doc>;
  const store = {
    collection: async (spec: CollectionSpec) => {
      specs.push(spec);
      return collection;
    },
  } as unknown as Store;
  return { store, specs, docs };
}

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

describe("StoreSeenEvents", () => {
  it("declares processed_events as a ttl collection and stores scoped ids with an expiry", async () => {
    const { store, specs, docs } = fakeStore();
    const seen = await StoreSeenEvents.open(store, { scope: "token-user-deleted", ttlMs: 1000, clock: { now: () => 5000 } });
    expect(specs).toEqual([{ name: "processed_events", ttl: true }]);
    expect(await seen.has("e1")).toBe(false);
    expect(await seen.mark("e1")).toBe(true);
    expect(await seen.has("e1")).toBe(true);
    expect(docs.get("token-user-deleted:e1")).toEqual({
      _id: "token-user-deleted:e1", scope: "token-user-deleted", eventId: "e1", expiresAt: 6000,
    });
  });

  it("treats alreadyExists as processed, and keeps scopes apart", async () => {
    const { store } = fakeStore();
    const a = await StoreSeenEvents.open(store, { scope: "a" });
    const b = await StoreSeenEvents.open(store, { scope: "b" });
    expect(await a.mark("e1")).toBe(true);
    expect(await a.mark("e1")).toBe(false);
    expect(await b.has("e1")).toBe(false);
    expect(await b.mark("e1")).toBe(true);
  });

  it("passes other store failures through", async () => {
    const store = {
      collection: async () => ({
        insert: async () => {
          throw IamError.unavailable("store down");
        },
      }),
    } as unknown as Store;
    const seen = await StoreSeenEvents.open(store, { scope: "a" });
    await expect(seen.mark("e1")).rejects.toThrow("store down");
  });
});
