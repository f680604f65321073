import { lazyImport, warmLazyImports } from "./lazy-import.js";

describe("lazyImport", () => {
  it("loads once on first use and gives every caller the same value", async () => {
    let loads = 0;
    const get = lazyImport(async () => ({ n: ++loads }));
    expect(loads).toBe(0);
    const [a, b] = await Promise.all([get(), get()]);
    expect(a).toBe(b);
    expect(await get()).toBe(a);
    expect(loads).toBe(1);
  });

  it("forgets a failed load, so the next use tries again and reports its own error", async () => {
    let loads = 0;
    const get = lazyImport(async () => {
      loads++;
      if (loads === 1) throw new Error("first load fails");
      return "loaded";
    });
    await expect(get()).rejects.toThrow("first load fails");
    await expect(get()).resolves.toBe("loaded");
    expect(loads).toBe(2);
  });

  it("warmLazyImports loads every holder, and a failing one does not stop the others", async () => {
    const loaded: string[] = [];
    const failing = lazyImport(async () => { loaded.push("failing"); throw new Error("no such module"); });
    const fine = lazyImport(async () => { loaded.push("fine"); return 1; });
    await warmLazyImports();
    expect(loaded).toEqual(["failing", "fine"]);
    await expect(fine()).resolves.toBe(1);
    expect(loaded).toEqual(["failing", "fine"]);
    // The failure was left to the first use, which loads again.
    await expect(failing()).rejects.toThrow("no such module");
  });
});
