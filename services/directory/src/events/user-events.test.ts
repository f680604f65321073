import { fromBinary } from "@bufbuild/protobuf";
import { ServiceAccountChangedSchema } from "../../../../gen/iam/directory/v1/user_pb.js";
import { MemoryBus } from "../../../kit/src/bus/memory-bus.js";
import { systemClock } from "../../../kit/src/store/port.js";
import { captureLogger } from "../../../kit/src/bus/bus-test-kit.js";
import type { RealmRecord } from "../domain/realm.js";
import { SERVICE_ACCOUNT_CHANGED, UserEvents } from "./user-events.js";

describe("UserEvents service-account announcements", () => {
  const realm = { _id: "r1", name: "acme", adminEventsEnabled: false } as RealmRecord;
  let bus: MemoryBus;
  let heard: Array<{ realmId: string; realmName: string; userId: string }>;
  let events: UserEvents;

  beforeEach(async () => {
    bus = new MemoryBus({ path: ":memory:", logger: captureLogger().logger });
    heard = [];
    await bus.watch({ subject: SERVICE_ACCOUNT_CHANGED, onGap: () => undefined }, (m) => {
      const e = fromBinary(ServiceAccountChangedSchema, m.payload);
      heard.push({ realmId: e.realmId, realmName: e.realmName, userId: e.userId });
    });
    events = new UserEvents(bus, systemClock);
  });
  afterEach(async () => bus.close());

  it("announces a service-account user's change, and nothing for an ordinary user", async () => {
    await events.userChanged(realm, { _id: "u-plain", serviceAccountClientId: "" });
    await events.userChanged(realm, { _id: "u-sa", serviceAccountClientId: "svc" });
    expect(heard).toEqual([{ realmId: "r1", realmName: "acme", userId: "u-sa" }]);
  });

  it("announces every group change with no user: any member may be a service account", async () => {
    await events.groupChanged(realm);
    expect(heard).toEqual([{ realmId: "r1", realmName: "acme", userId: "" }]);
  });
});
