import { MemoryBus } from "../../../kit/src/bus/memory-bus.js";
import { captureLogger } from "../../../kit/src/bus/bus-test-kit.js";
import type { SessionTerminator } from "../domain/session-terminator.js";
import type { SsoSessions } from "../domain/sso-sessions.js";
import { RETIRED_DURABLES, startOAuthConsumers } from "./oauth-consumers.js";

describe("startOAuthConsumers", () => {
  it("retires the durables earlier versions used for cache drops, so they stop holding the journal", async () => {
    const bus = new MemoryBus({ path: ":memory:", logger: captureLogger().logger, pruneIntervalMs: 0 });
    const { logger, records } = captureLogger();
    try {
      // What an earlier version left behind: durables that a new version never subscribes to.
      for (const durable of RETIRED_DURABLES) await (await bus.subscribe({ durable, subject: "iam.directory.v1.>" }, async () => undefined)).stop();
      // No event is published here, so the terminator is never called.
      const subs = await startOAuthConsumers({ bus, terminator: {} as SessionTerminator, sso: {} as SsoSessions, logger, dropRealm: async () => 0 });
      for (const durable of RETIRED_DURABLES) expect(await bus.retireDurable(durable)).toBe(false);
      expect(records.filter((r) => r.msg === "retired a durable this version no longer uses").map((r) => r.durable)).toEqual(RETIRED_DURABLES);
      await Promise.all(subs.map((s) => s.stop()));
    } finally {
      await bus.close();
    }
  });
});
