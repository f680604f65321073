import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import bcryptjs from "bcryptjs";
import { HashingPool, type HashJobInput } from "./hashing-pool.js";

/**
 * The pool on real threads (`@node-rs/argon2` at small parameters), and on a stand-in thread for
 * the failures (hashing-pool.fixture-thread.ts).
 */
describe("HashingPool", () => {
  const params = { memoryCost: 1024, timeCost: 1, parallelism: 1 };
  const pw = "Pool-pw-1";
  const standIn = new URL("./hashing-pool.fixture-thread.js", import.meta.url);
  const pools: HashingPool[] = [];
  const pool = (...args: ConstructorParameters<typeof HashingPool>) => {
    const p = new HashingPool(...args);
    pools.push(p);
    return p;
  };
  afterAll(async () => { await Promise.all(pools.map((p) => p.close())); });

  it("hashes and verifies on its threads: argon2 only, or any stored format", async () => {
    const p = pool(2);
    const hash = String(await p.run({ kind: "hash", password: pw, params }));
    const bcrypt = await bcryptjs.hash(pw, 4);
    const verify = (h: string, password: string, anyFormat: boolean) => p.run({ kind: "verify", hash: h, password, anyFormat });
    expect(hash.startsWith("$argon2id$v=19$m=1024,t=1,p=1$")).toBe(true);
    expect(await Promise.all([
      verify(hash, pw, false), verify(hash, `${pw}x`, false), verify(bcrypt, pw, true), verify(bcrypt, pw, false), verify("$argon2id$", pw, true),
    ])).toEqual([true, false, true, false, false]);
  });

  it("fails a job it cannot do with its reason, and goes on with the next", async () => {
    const p = pool(1);
    await expect(p.run({ kind: "hash", password: pw, params: { memoryCost: 1, timeCost: 1, parallelism: 1 } })).rejects.toThrow(/memory/i);
    expect(String(await p.run({ kind: "hash", password: pw, params })).startsWith("$argon2id$")).toBe(true);
  });

  it("answers a burst in one batch, and each lone job as soon as it is done", async () => {
    const p = pool(1);
    const job: HashJobInput = { kind: "hash", password: pw, params };
    await Promise.all(Array.from({ length: 5 }, () => p.run(job)));
    expect(p.stats.batches).toBe(1);
    for (let i = 0; i < 3; i++) await p.run(job);
    expect(p.stats.batches).toBe(4);
  });

  it("bounds a batch by maxBatch, and holds nothing with maxHoldMs 0", async () => {
    const job: HashJobInput = { kind: "hash", password: pw, params };
    const capped = pool(1, { limits: { maxBatch: 8, maxHoldMs: 60_000 } });
    await Promise.all(Array.from({ length: 20 }, () => capped.run(job)));
    const unheld = pool(1, { limits: { maxBatch: 8, maxHoldMs: 0 } });
    await Promise.all(Array.from({ length: 5 }, () => unheld.run(job)));
    expect([capped.stats.batches, unheld.stats.batches]).toEqual([3, 5]);
  });

  it("gives each job to the thread with the fewest unfinished ones", async () => {
    const p = pool(2);
    const job: HashJobInput = { kind: "hash", password: pw, params };
    const running = Array.from({ length: 5 }, () => p.run(job));
    expect(p.stats.unfinished).toEqual([3, 2]);
    await Promise.all(running);
    expect(p.stats.unfinished).toEqual([0, 0]);
  });

  it("fails the jobs of a thread that exits or throws with an error, and starts a new thread for the next", async () => {
    const p = pool(1, { entry: standIn });
    const verify = (password: string) => p.run({ kind: "verify", hash: "h", password, anyFormat: true });
    const exited = [verify("a"), verify("exit-now")];
    for (const r of exited) await expect(r).rejects.toThrow("password hashing failed: the hashing thread exited with code 3");
    expect(await verify("b")).toBe(true);
    await expect(verify("throw-now")).rejects.toThrow("password hashing failed: boom");
    expect(await verify("c")).toBe(true);
    expect(p.stats.unfinished).toEqual([0]);
  });

  it("on close, finishes the jobs under way and refuses new ones", async () => {
    const p = pool(1);
    const under = p.run({ kind: "hash", password: pw, params });
    const closed = Promise.all([p.close(), p.close()]);
    await expect(p.run({ kind: "hash", password: pw, params })).rejects.toThrow("the hashing pool is closed");
    expect(String(await under).startsWith("$argon2id$")).toBe(true);
    await closed;
  });

  it("never keeps an idle process alive", async () => {
    // The process ends by itself once its job is answered; a thread left referenced would hold it
    // until the test's timeout.
    const url = new URL("./hashing-pool.js", import.meta.url).href;
    const script = `const { HashingPool } = await import(${JSON.stringify(url)});
      const p = new HashingPool(2);
      console.log(await p.run({ kind: "hash", password: "x", params: { memoryCost: 1024, timeCost: 1, parallelism: 1 } }) !== "");`;
    const file = join(mkdtempSync(join(tmpdir(), "hashing-pool-")), "idle.mjs");
    writeFileSync(file, script);
    const { stdout } = await promisify(execFile)(process.execPath, [file], { timeout: 20_000 });
    expect(stdout.trim()).toBe("true");
  });

  it("refuses a thread count that is not a positive integer", () => {
    expect(() => new HashingPool(0)).toThrow("hashing threads must be a positive integer, got 0");
  });
});
