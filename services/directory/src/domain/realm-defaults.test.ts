import { SqliteStore } from "../../../kit/src/store/sqlite-store.js";
import { systemClock } from "../../../kit/src/store/port.js";
import { ClientScopeRepository } from "../store/client-scope-repository.js";
import { RoleRepository } from "../store/role-repository.js";
import { BUILTIN_SCOPES, BUILTIN_SEED_VERSION } from "./builtin-scopes.js";
import type { RealmRecord } from "./realm.js";
import { RealmDefaults } from "./realm-defaults.js";

describe("RealmDefaults", () => {
  const realm = { _id: "r1", name: "acme" } as RealmRecord;
  let store: SqliteStore;
  let scopes: ClientScopeRepository;
  let roles: RoleRepository;
  /** A fresh process's seeder (its "done" memory empty). */
  const seeder = () => RealmDefaults.open(store, roles, scopes, systemClock);
  const names = async () => (await scopes.listScopes(realm._id)).map((s) => s.name);
  const marks = async () => (await store.collection<{ _id: string; version?: number }>({ name: "realm_seeds" })).get(realm._id);

  beforeEach(async () => {
    store = new SqliteStore({ path: ":memory:", sweepIntervalMs: 0 });
    scopes = await ClientScopeRepository.open(store);
    roles = await RoleRepository.open(store);
  });
  afterEach(async () => store.close());

  it("seeds every built-in scope and marks the realm at the newest version", async () => {
    await (await seeder()).ensure(realm);
    expect(await names()).toEqual(BUILTIN_SCOPES.map((s) => s.name).sort());
    expect(await marks()).toMatchObject({ version: BUILTIN_SEED_VERSION });
  });

  it("gives a realm seeded before address and phone existed those two once, and keeps an admin's own scope of that name", async () => {
    // What version 1 left: its scopes, and a mark without a version. The admin has since deleted
    // "email" and made a scope named "phone" of their own.
    const v1 = await seeder();
    await v1.ensure(realm);
    for (const s of await scopes.listScopes(realm._id)) {
      if (["address", "phone", "email"].includes(s.name)) await scopes.deleteScope(realm._id, s._id);
    }
    await scopes.insertScope({ _id: "mine", realmId: realm._id, name: "phone", description: "ours", protocol: "openid-connect", createdAt: 1 });
    await (await store.collection({ name: "realm_seeds" })).replace({ _id: realm._id, seededAt: 1 });

    await (await seeder()).ensure(realm);
    expect(await names()).toEqual(["acr", "address", "basic", "offline_access", "organization", "phone", "profile", "roles", "web-origins"]);
    const all = await scopes.listScopes(realm._id);
    const address = all.find((s) => s.name === "address")!;
    expect((await scopes.mappersOf(realm._id, [address._id])).map((m) => m.mapperType)).toEqual(["oidc-address-mapper"]);
    expect(all.find((s) => s.name === "phone")).toMatchObject({ _id: "mine", description: "ours" });
    expect(await scopes.mappersOf(realm._id, ["mine"])).toEqual([]);
    expect(await marks()).toMatchObject({ version: BUILTIN_SEED_VERSION });

    // Upgraded once: a default deleted afterwards stays deleted.
    await scopes.deleteScope(realm._id, address._id);
    await (await seeder()).ensure(realm);
    expect(await names()).not.toContain("address");
  });

  it("adds profile's updated_at mapper once to a realm seeded before it, and not to a profile scope the admin deleted", async () => {
    await (await seeder()).ensure(realm);
    const profile = (await scopes.listScopes(realm._id)).find((s) => s.name === "profile")!;
    const updatedAt = (await scopes.mappersOf(realm._id, [profile._id])).find((m) => m.name === "updated at")!;
    expect(updatedAt).toMatchObject({ mapperType: "oidc-usermodel-property-mapper", config: expect.objectContaining({ "user.attribute": "updatedAt", "claim.name": "updated_at", "jsonType.label": "long" }) });
    // What version 3 left: the profile scope without the mapper.
    await scopes.deleteMapper(realm._id, profile._id, updatedAt._id);
    await (await store.collection({ name: "realm_seeds" })).replace({ _id: realm._id, seededAt: 1, version: 3 });
    await (await seeder()).ensure(realm);
    const after = (await scopes.mappersOf(realm._id, [profile._id])).map((m) => m.name);
    expect(after.filter((n) => n === "updated at")).toEqual(["updated at"]);
    expect(after).toHaveLength(BUILTIN_SCOPES.find((s) => s.name === "profile")!.mappers.length);
    expect(await marks()).toMatchObject({ version: BUILTIN_SEED_VERSION });

    await scopes.deleteMapper(realm._id, profile._id, updatedAt._id);
    await scopes.deleteScope(realm._id, profile._id);
    await (await store.collection({ name: "realm_seeds" })).replace({ _id: realm._id, seededAt: 1, version: 3 });
    await (await seeder()).ensure(realm);
    expect(await names()).not.toContain("profile");
    expect((await scopes.mappersOf(realm._id, [profile._id])).map((m) => m.name)).not.toContain("updated at");
  });

  it("seeds a default client once, after the scopes, also into a realm marked before clients were seeded", async () => {
    const seeded: Array<{ id: string; scopes: string[] }> = [];
    const withClient = async () => (await seeder()).seedClient("account-console", async (r, id) => {
      seeded.push({ id, scopes: await names() });
    });
    // A realm seeded by a version without default clients (or by the import path, which seeds none).
    await (await seeder()).ensure(realm);
    expect(await marks()).not.toHaveProperty("clients");

    await (await withClient()).ensure(realm);
    expect(seeded).toEqual([{ id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-5/), scopes: BUILTIN_SCOPES.map((s) => s.name).sort() }]);
    expect(await marks()).toMatchObject({ version: BUILTIN_SEED_VERSION, clients: true });
    // Not again, in this process or another: an administrator's deletion holds.
    const again = await withClient();
    await again.ensure(realm);
    await again.ensure(realm);
    expect(seeded).toHaveLength(1);

    // A new realm: scopes and client in one pass, the same id however often it is derived.
    const fresh = { _id: "r2", name: "fresh" } as RealmRecord;
    await (await withClient()).ensure(fresh);
    expect(seeded).toHaveLength(2);
    expect(seeded[1]!.id).not.toBe(seeded[0]!.id);
  });
});
