import type { Collection, Doc, Store } from "../../kit/src/store/port.js";
import { AuthOutcome, startAuthnHarness, type AuthnHarness } from "./authentication-test-kit.js";
import { HashingPool, type HashJobInput } from "./domain/hashing-pool.js";

/** Holds the writes to login_failures while closed. */
class Gate {
  private opened: Promise<void> = Promise.resolve();
  private release: () => void = () => undefined;

  close(): void {
    this.opened = new Promise((resolve) => (this.release = resolve));
  }

  open(): void {
    this.release();
  }

  wait(): Promise<void> {
    return this.opened;
  }
}

const WRITES = new Set<PropertyKey>(["insert", "update", "findOneAndUpdate", "deleteMany", "findOneAndDelete"]);

/** The store, with every write to the brute-force records held by `gate` and noted in `order` once done. */
function gatingFailures(gate: Gate, order: string[]): (store: Store) => Store {
  return (store) => ({
    async collection<T extends Doc>(spec: Parameters<Store["collection"]>[0]): Promise<Collection<T>> {
      const c = await store.collection<T>(spec);
      if (spec.name !== "login_failures") return c;
      return new Proxy(c, {
        get(target, prop) {
          const value: unknown = Reflect.get(target, prop, target);
          if (typeof value !== "function") return value;
          if (!WRITES.has(prop)) return value.bind(target);
          return async (...args: unknown[]) => {
            await gate.wait();
            const result: unknown = await value.apply(target, args);
            order.push("failure written");
            return result;
          };
        },
      });
    },
    ping: () => store.ping(),
    sweepExpired: () => store.sweepExpired(),
    close: () => store.close(),
  });
}

// Spec 3 and no username enumeration by timing: a wrong password's failure is counted after the
// reply (an unknown user has no counter to write, so waiting for it told existing users apart),
// yet the user's next attempt in this process still waits for that write, so lockouts stay exact.
describe("brute force: a wrong password is answered before its failure is written", () => {
  let h: AuthnHarness;
  const gate = new Gate();
  const order: string[] = [];
  beforeAll(async () => { h = await startAuthnHarness({ wrapStore: gatingFailures(gate, order) }); });
  afterAll(async () => h?.stop());

  it("replies to the wrong password while its write is held; the next attempt waits for the write and finds the lock", async () => {
    const r = await h.realm({ bruteForceEnabled: true, maxLoginFailures: 1, lockoutDuration: 60 });
    const id = await h.user(r, "olaf");
    // When the next attempt's password has been verified (just before it reads the lock state), let the held write run.
    const real = HashingPool.prototype.run;
    let afterVerify: (() => void) | null = null;
    HashingPool.prototype.run = function (this: HashingPool, job: HashJobInput) {
      const done = real.call(this, job);
      if (job.kind === "verify" && afterVerify) void done.then(afterVerify);
      return done;
    };
    gate.close();
    // Only if the reply waits for the held write (the behaviour this test rules out): open the gate
    // so that the test fails on the order below instead of hanging.
    const unblock = setTimeout(() => gate.open(), 3_000);
    try {
      const wrong = await h.login(r, "olaf", "bad-password");
      order.push("wrong password answered");
      afterVerify = () => gate.open();
      const next = await h.login(r, "olaf", "correct-horse-1");
      order.push("next attempt answered");
      expect(wrong).toMatchObject({ outcome: AuthOutcome.INVALID_CREDENTIALS, userId: id, eventError: "invalid_user_credentials" });
      expect(next).toMatchObject({ outcome: AuthOutcome.LOCKED, userId: id, eventError: "user_temporarily_disabled" });
    } finally {
      clearTimeout(unblock);
      HashingPool.prototype.run = real;
      gate.open();
    }
    expect(order.filter((step, i) => step !== order[i - 1])).toEqual(["wrong password answered", "failure written", "next attempt answered"]);
    // The admin's list reads after the writes this process started.
    expect((await h.security.listLockedUsers({ realm: r })).users.map((u) => [u.userId, u.failureCount])).toEqual([[id, 1]]);
  });
});
