import { ReadCache } from "./read-cache.js";

describe("ReadCache", () => {
  let now = 0;
  let loads = 0;
  const load = (v: string | null) => async () => { loads++; return v; };

  beforeEach(() => { now = 0; loads = 0; });

  it("reuses a value for maxAgeMs, then reads again", async () => {
    const c = new ReadCache<string>(100, () => now);
    expect(await c.get("k", load("a"))).toBe("a");
    now = 99;
    expect(await c.get("k", load("b"))).toBe("a");
    now = 100;
    expect(await c.get("k", load("b"))).toBe("b");
    expect(loads).toBe(2);
  });

  it("never caches a miss, and reads again under another stamp", async () => {
    const c = new ReadCache<string>(100, () => now);
    expect(await c.get("k", load(null))).toBeNull();
    expect(await c.get("k", load("a"), 1)).toBe("a");
    expect(await c.get("k", load("b"), 1)).toBe("a");
    expect(await c.get("k", load("b"), 2)).toBe("b");
    expect(loads).toBe(3);
  });

  it("does not store a read that overlapped a drop, and drops by prefix", async () => {
    const c = new ReadCache<string>(100, () => now);
    let release!: () => void;
    const slow = c.get("r\0a", () => new Promise<string>((r) => { release = () => r("old"); }));
    c.drop("r\0a");
    release();
    expect(await slow).toBe("old");
    expect(await c.get("r\0a", load("new"))).toBe("new");
    await c.get("r\0b", load("b"));
    c.dropWhere("r\0");
    expect(await c.get("r\0a", load("newer"))).toBe("newer");
    expect(await c.get("r\0b", load("b2"))).toBe("b2");
  });

  it("peek answers a fresh entry only, without loading", async () => {
    const c = new ReadCache<string>(100, () => now);
    expect(c.peek("k")).toBeUndefined();
    await c.get("k", load("a"), 1);
    expect(c.peek("k", 1)).toBe("a");
    expect(c.peek("k", 2)).toBeUndefined();
    now = 100;
    expect(c.peek("k", 1)).toBeUndefined();
    now = 0;
    c.drop("k");
    expect(c.peek("k", 1)).toBeUndefined();
    expect(loads).toBe(1);
  });
});
