import { create, toBinary } from "@bufbuild/protobuf";
import { TokenConfigChangedSchema } from "../../../../gen/iam/directory/v1/client_pb.js";
import { openBus } from "../../../kit/src/bus/open-bus.js";
import type { Bus, Subscription } from "../../../kit/src/bus/port.js";
import { createLogger } from "../../../kit/src/logger.js";
import { TestClock } from "../../../kit/src/store/store-contract-kit.js";
import type { ClientDirectory } from "../domain/client-directory.js";
import { ServiceAccountGrants } from "../domain/grants/service-account-grants.js";
import type { KeyRing } from "../domain/key-ring.js";
import type { RealmSettings } from "../domain/realm-settings.js";
import type { DiscoveryScopes } from "../domain/discovery-scopes.js";
import type { ClientInfo } from "../domain/client-directory.js";
import type { OAuthRealm } from "../domain/realm-settings.js";
import { watchTokenCaches } from "./cache-watchers.js";

const realmA = { id: "id-a", name: "a" } as OAuthRealm;
const realmB = { id: "id-b", name: "b" } as OAuthRealm;
const svc = { id: "c1", clientId: "svc" } as ClientInfo;

/** token-config.changed drops the named realm's cached clients, grants and discovery scopes; without a realm, all. */
describe("watchTokenCaches: token-config.changed", () => {
  const logger = createLogger("test", "silent");
  let bus: Bus;
  let subs: Subscription[];
  let grants: ServiceAccountGrants;
  let clientDrops: Array<string | undefined>;
  let scopeDrops: Array<string | undefined>;

  beforeEach(async () => {
    bus = await openBus({ kind: "memory", path: ":memory:", logger });
    grants = new ServiceAccountGrants(new TestClock());
    clientDrops = [];
    scopeDrops = [];
    const discoveryScopes = { invalidate: (realm?: string) => scopeDrops.push(realm) } as unknown as DiscoveryScopes;
    const clients = { invalidate: (realm?: string) => clientDrops.push(realm) } as unknown as ClientDirectory;
    const realms = { invalidate: () => undefined } as unknown as RealmSettings;
    const keys = { invalidate: () => undefined, invalidateAll: () => undefined } as unknown as KeyRing;
    subs = await watchTokenCaches(bus, { realms, clients, serviceAccountGrants: grants, keys, discoveryScopes }, logger);
    for (const realm of [realmA, realmB]) grants.set(realm, svc, undefined, { userId: "sa", grant: { names: [], realmRoles: [], accessClaims: {}, idClaims: {} } }, grants.generation());
  });
  afterEach(async () => {
    for (const s of subs) await s.stop();
    await bus.close();
  });

  async function publish(fields: { realmId?: string; realmName?: string }): Promise<void> {
    await bus.publish("iam.directory.v1.token-config.changed", toBinary(TokenConfigChangedSchema, create(TokenConfigChangedSchema, fields)));
    for (let i = 0; i < 50 && clientDrops.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
  }

  it("drops only the named realm's entries", async () => {
    await publish({ realmId: realmA.id, realmName: realmA.name });
    expect(clientDrops).toEqual(["a"]);
    expect(scopeDrops).toEqual(["a"]);
    expect(grants.get(realmA, svc, undefined)).toBeUndefined();
    expect(grants.get(realmB, svc, undefined)?.userId).toBe("sa");
  });

  it("drops every realm's entries for an event without a realm (an older directory)", async () => {
    await publish({});
    expect(clientDrops).toEqual([undefined]);
    expect(scopeDrops).toEqual([undefined]);
    expect(grants.get(realmA, svc, undefined)).toBeUndefined();
    expect(grants.get(realmB, svc, undefined)).toBeUndefined();
  });
});
