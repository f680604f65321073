import { fromBinary } from "@bufbuild/protobuf";
import { Code } from "@connectrpc/connect";
import { RealmDeletedSchema } from "../../../gen/iam/directory/v1/realm_pb.js";
import { ClientUpdatedSchema } from "../../../gen/iam/directory/v1/client_pb.js";
import { PasswordChangedSchema, UserDeletedSchema, UserDisabledSchema } from "../../../gen/iam/directory/v1/user_pb.js";
import { waitUntil } from "../../kit/src/bus/bus-test-kit.js";
import { CrashWorld, crashTestStores } from "./crash-world.js";

/**
 * Deletions, disables and password changes that a crash interrupted, finished and announced by
 * the process that starts next (outbox.ts, crash-world.ts): the writes whose announcement revokes
 * something. Admin events and cache drops: interrupted-admin-writes.test.ts.
 */
describe.each(crashTestStores())("directory writes a crash interrupted (%s)", (_storeName, openTestStore) => {
  const w = CrashWorld.register(openTestStore);

  it("a client deletion that died in its cascade: the next process drops its roles and announces the client's and its service account's deletion", async () => {
    await w.clients.createClient({ realm: "acme", client: { clientId: "svc", grantTypes: ["client_credentials"], grantTypesPresent: true } });
    await w.roles.createRole({ realm: "acme", clientId: "svc", role: { name: "reader" } });
    const saUser = (await w.clients.getServiceAccountUser({ realm: "acme", clientId: "svc" })).user!.id;
    const clientRoles = async () => (await w.store.collection({ name: "roles" })).count({ clientId: { $ne: "" }, name: "reader" });
    expect(await clientRoles()).toBe(1);
    // Dies at the service-account user's user.deleted: the client and that user are gone, the
    // client's roles and both announcements not yet.
    w.crashAt(["iam.directory.v1.user.deleted"]);
    void w.clients.deleteClient({ realm: "acme", clientId: "svc" }).catch(() => undefined);
    await waitUntil("the store to show it", async () => (await w.clients.getClient({ realm: "acme", clientId: "svc" }).then(() => false, () => true)));
    await waitUntil("the store to show it", async () => (await (await w.store.collection({ name: "users" })).count({ _id: saUser })) === 0);
    expect(await clientRoles()).toBe(1);
    expect(w.seen("iam.directory.v1.client.updated")).toEqual([]);

    await w.restart();
    await waitUntil("client.updated and user.deleted", () => w.seen("iam.directory.v1.client.updated").length === 1 && w.seen("iam.directory.v1.user.deleted").length === 1);
    const client = fromBinary(ClientUpdatedSchema, w.seen("iam.directory.v1.client.updated")[0]!.payload);
    expect({ clientId: client.clientId, deleted: client.deleted }).toEqual({ clientId: "svc", deleted: true });
    expect(fromBinary(UserDeletedSchema, w.seen("iam.directory.v1.user.deleted")[0]!.payload).userId).toBe(saUser);
    expect(await clientRoles()).toBe(0);
    expect(await (await w.store.collection({ name: "outbox" })).count({})).toBe(0);
    // And its DELETE admin event, as the admin's request would have recorded it.
    await waitUntil("the admin event", () => w.delivered.got.some((m) => m.subject === "iam.directory.v1.admin-event.recorded"));
  });

  it("a realm deletion that died before its announcement: the next process announces it, and every consumer drops the realm's data", async () => {
    await w.clients.createClient({ realm: "acme", client: { clientId: "web" } });
    const realmId = (await w.realms.getRealm({ name: "acme" })).realm!.id;
    w.crashAt(["iam.directory.v1.realm.deleted"]);
    void w.realms.deleteRealm({ name: "acme" }).catch(() => undefined);
    await waitUntil("the store to show it", async () => w.realms.getRealm({ name: "acme" }).then(() => false, (e: { code: Code }) => e.code === Code.NotFound));
    expect(w.seen("iam.directory.v1.realm.deleted")).toEqual([]);
    // The client made here (the realm's seeded account-console client is there too).
    expect(await (await w.store.collection({ name: "clients" })).count({ realmId, clientId: "web" })).toBe(1);

    await w.restart();
    await waitUntil("realm.deleted", () => w.seen("iam.directory.v1.realm.deleted").length === 1);
    const e = fromBinary(RealmDeletedSchema, w.seen("iam.directory.v1.realm.deleted")[0]!.payload);
    expect({ realmId: e.realmId, realmName: e.realmName }).toEqual({ realmId, realmName: "acme" });
    await waitUntil("the store to show it", async () => (await (await w.store.collection({ name: "clients" })).count({ realmId })) === 0);
  });

  it("a user disabled just before a crash: the next process announces user.disabled; one enabled again meanwhile is not announced", async () => {
    const alice = await w.newUser("alice");
    const bob = await w.newUser("bob");
    w.crashAt(["iam.directory.v1.user.disabled"]);
    void w.users.updateUser({ realm: "acme", userId: alice, update: { enabled: false } }).catch(() => undefined);
    void w.users.updateUser({ realm: "acme", userId: bob, update: { enabled: false } }).catch(() => undefined);
    const enabled = async (id: string) => (await (await w.store.collection({ name: "users" })).get(id))?.enabled;
    await waitUntil("the store to show it", async () => (await enabled(alice)) === false && (await enabled(bob)) === false);
    // Bob is enabled again (by another replica, say) before the relay looks.
    await (await w.store.collection({ name: "users" })).update({ _id: bob }, { $set: { enabled: true } });

    await w.restart();
    await waitUntil("user.disabled", () => w.seen("iam.directory.v1.user.disabled").length === 1);
    expect(fromBinary(UserDisabledSchema, w.seen("iam.directory.v1.user.disabled")[0]!.payload).userId).toBe(alice);
    await waitUntil("the store to show it", async () => (await (await w.store.collection({ name: "outbox" })).count({})) === 0);
    expect(w.seen("iam.directory.v1.user.disabled")).toHaveLength(1);
  });

  it("a user deleted just before a crash, the store's only process (embedded): the next process announces user.deleted as it starts, not a lease later", async () => {
    const dave = await w.newUser("dave");
    w.crashAt(["iam.directory.v1.user.deleted"]);
    void w.users.deleteUser({ realm: "acme", userId: dave }).catch(() => undefined);
    await waitUntil("the store to show it", async () => (await (await w.store.collection({ name: "users" })).count({ _id: dave })) === 0);

    await w.restart(true);
    // start() ran the relay with no time passed: the lease did not hold it back.
    await waitUntil("user.deleted", () => w.seen("iam.directory.v1.user.deleted").length === 1);
    expect(w.seen("iam.directory.v1.user.deleted").map((m) => fromBinary(UserDeletedSchema, m.payload).userId)).toEqual([dave]);
    expect(await (await w.store.collection({ name: "outbox" })).count({})).toBe(0);
  });

  it("a password reset just before a crash: the next process announces password.changed", async () => {
    const carol = await w.newUser("carol");
    w.crashAt(["iam.directory.v1.password.changed"]);
    const before = (await (await w.store.collection({ name: "credentials" })).findOne({ userId: carol }))?.createdAt as number;
    void w.users.resetPassword({ realm: "acme", userId: carol, password: "Another-Horse-2", temporary: true }).catch(() => undefined);
    await waitUntil("the store to show it", async () => ((await (await w.store.collection({ name: "credentials" })).findOne({ userId: carol }))?.createdAt as number) > before);

    await w.restart();
    await waitUntil("password.changed", () => w.seen("iam.directory.v1.password.changed").length === 1);
    const e = fromBinary(PasswordChangedSchema, w.seen("iam.directory.v1.password.changed")[0]!.payload);
    expect({ userId: e.userId, temporary: e.temporary }).toEqual({ userId: carol, temporary: true });
  });

  it("a client disabled just before a crash: the next process announces client.updated, disabled", async () => {
    await w.clients.createClient({ realm: "acme", client: { clientId: "portal" } });
    w.crashAt(["iam.directory.v1.client.updated"]);
    void w.clients.updateClient({ realm: "acme", clientId: "portal", update: { enabled: false } }).catch(() => undefined);
    await waitUntil("the store to show it", async () => (await (await w.store.collection({ name: "clients" })).findOne({ clientId: "portal" }))?.enabled === false);
    const announced = () => w.seen("iam.directory.v1.client.updated").map((m) => fromBinary(ClientUpdatedSchema, m.payload)).filter((c) => c.clientId === "portal");
    expect(announced()).toEqual([]);

    await w.restart();
    await waitUntil("client.updated", () => announced().length === 1);
    expect({ deleted: announced()[0]!.deleted, disabled: announced()[0]!.disabled }).toEqual({ deleted: false, disabled: true });
  });
});
