import { MemoryBus } from "../../../kit/src/bus/memory-bus.js";
import { captureLogger } from "../../../kit/src/bus/bus-test-kit.js";
import type { SessionTerminator } from "../domain/session-terminator.js";
import type { SsoSessions } from "../domain/sso-sessions.js";
import { RETIRED_DURABLES, startOAuthConsumers } from "./oauth-consumers.js";
import { create, toBinary } from "@bufbuild/protobuf";
import { UserDeletedSchema, UserDisabledSchema } from "../../../../gen/iam/directory/v1/user_pb.js";
import { openStore } from "../../../kit/src/store/open-store.js";
import { ConsentRepository } from "../flow/consent-repository.js";

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

describe("user.deleted", () => {
  it("drops the deleted user's consents, and only on deletion", async () => {
    const bus = new MemoryBus({ path: ":memory:", logger: captureLogger().logger, pruneIntervalMs: 0 });
    const store = await openStore({ kind: "sqlite", path: ":memory:", sweepIntervalMs: 0 });
    const consents = await ConsentRepository.open(store);
    // The terminator's own work is covered by its tests; here only that the consumer goes on to the consents.
    const terminator = { endAllOfUser: async () => 0 } as unknown as SessionTerminator;
    const subs = await startOAuthConsumers({
      bus, terminator, sso: {} as SsoSessions, logger: captureLogger().logger, dropRealm: async () => 0,
      dropUserAlso: async (realmId, userId) => { await consents.deleteUser(realmId, userId); },
    });
    try {
      for (const user of ["gone", "off", "kept"]) await consents.grant("r1", user, "app", ["email"], 1);
      const event = (schema: typeof UserDeletedSchema | typeof UserDisabledSchema, userId: string) =>
        toBinary(schema, create(schema, { realmId: "r1", realmName: "acme", userId }));
      await bus.publish("iam.directory.v1.user.disabled", event(UserDisabledSchema, "off"));
      await bus.publish("iam.directory.v1.user.deleted", event(UserDeletedSchema, "gone"));
      for (let i = 0; i < 100 && (await consents.granted("r1", "gone", "app")).length > 0; i++) await new Promise((r) => setTimeout(r, 10));
      expect(await consents.granted("r1", "gone", "app")).toEqual([]);
      expect(await consents.granted("r1", "off", "app")).toEqual(["email"]);
      expect(await consents.granted("r1", "kept", "app")).toEqual(["email"]);
    } finally {
      await Promise.all(subs.map((s) => s.stop()));
      await bus.close();
      await store.close();
    }
  });
});
