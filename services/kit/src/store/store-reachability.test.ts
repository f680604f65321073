import { StoreReachability } from "./store-reachability.js";
import { isStoreUnavailable, StoreUnreachableError } from "./store-unavailable.js";

function noServer(): Error {
  return Object.assign(new Error("Server selection timed out after 2000 ms"), { name: "MongoServerSelectionError" });
}

describe("StoreReachability", () => {
  let now = 1_000;
  const reach = () => new StoreReachability(1_000, () => now);
  beforeEach(() => { now = 1_000; });

  it("fails operations at once after one found no server, until the probe time", async () => {
    const r = reach();
    await expect(r.run(() => Promise.reject(noServer()))).rejects.toMatchObject({ name: "MongoServerSelectionError" });
    let tried = 0;
    const op = () => { tried++; return Promise.resolve("ok"); };
    const refused = await r.run(op).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(StoreUnreachableError);
    expect(isStoreUnavailable(refused)).toBe(true);
    now += 999;
    await expect(r.run(op)).rejects.toBeInstanceOf(StoreUnreachableError);
    expect(tried).toBe(0);
    now += 1;
    await expect(r.run(op)).resolves.toBe("ok");
    expect(tried).toBe(1);
    await expect(r.run(op)).resolves.toBe("ok");
    expect(tried).toBe(2);
  });

  it("keeps refusing when the probe finds no server again", async () => {
    const r = reach();
    await r.run(() => Promise.reject(noServer())).catch(() => undefined);
    now += 1_000;
    await expect(r.run(() => Promise.reject(noServer()))).rejects.toMatchObject({ name: "MongoServerSelectionError" });
    now += 500;
    await expect(r.run(() => Promise.resolve(1))).rejects.toBeInstanceOf(StoreUnreachableError);
  });

  it("lets other failures through without refusing the next operations", async () => {
    const r = reach();
    const duplicate = Object.assign(new Error("E11000 duplicate key"), { name: "MongoServerError", code: 11000 });
    await expect(r.run(() => Promise.reject(duplicate))).rejects.toBe(duplicate);
    const network = Object.assign(new Error("connection reset"), { name: "MongoNetworkError" });
    await expect(r.run(() => Promise.reject(network))).rejects.toBe(network);
    await expect(r.run(() => Promise.resolve("ok"))).resolves.toBe("ok");
  });
});
