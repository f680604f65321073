import { fromBinary } from "@bufbuild/protobuf";
import { ServiceAccountChangedSchema } from "../../../../gen/iam/directory/v1/user_pb.js";
import { EventStamp } from "../../../kit/src/bus/outbox.js";
import { systemClock } from "../../../kit/src/store/port.js";
import type { RealmRecord } from "../domain/realm.js";
import { SERVICE_ACCOUNT_CHANGED, UserEvents } from "./user-events.js";

// The service-account cache drops a write stages (auditedWrite's `also`), as built.
describe("UserEvents service-account announcements", () => {
  const realm = { _id: "r1", name: "acme", adminEventsEnabled: false } as RealmRecord;
  // These only build events; nothing is sent.
  const events = new UserEvents({ send: async () => { throw new Error("not sent here"); } }, systemClock);
  const decoded = (built: ReturnType<NonNullable<ReturnType<UserEvents["serviceAccountChange"]>>>, stamp: EventStamp) => built.map((e) => {
    expect(e.subject).toBe(SERVICE_ACCOUNT_CHANGED);
    expect(e.id).toBe(stamp.id("event"));
    const m = fromBinary(ServiceAccountChangedSchema, e.payload);
    return { realmId: m.realmId, realmName: m.realmName, userId: m.userId };
  });

  it("stages a service-account user's change under the write's stamp, and nothing for an ordinary user", () => {
    expect(events.serviceAccountChange(realm, { _id: "u-plain", serviceAccountClientId: "" })).toBeUndefined();
    const stamp = new EventStamp(1);
    expect(decoded(events.serviceAccountChange(realm, { _id: "u-sa", serviceAccountClientId: "svc" })!(stamp), stamp))
      .toEqual([{ realmId: "r1", realmName: "acme", userId: "u-sa" }]);
  });

  it("stages every group change with no user: any member may be a service account", () => {
    const stamp = new EventStamp(1);
    expect(decoded(events.groupChange(realm)(stamp), stamp)).toEqual([{ realmId: "r1", realmName: "acme", userId: "" }]);
  });
});
