import { fromBinary } from "@bufbuild/protobuf";
import { RealmUpdatedSchema } from "../../../gen/iam/directory/v1/realm_pb.js";
import { ClientUpdatedSchema, TokenConfigChangedSchema } from "../../../gen/iam/directory/v1/client_pb.js";
import { HolderType } from "../../../gen/iam/directory/v1/role_pb.js";
import { AdminEventSchema } from "../../../gen/iam/audit/v1/audit_pb.js";
import { ServiceAccountChangedSchema } from "../../../gen/iam/directory/v1/user_pb.js";
import { sleep, waitUntil } from "../../kit/src/bus/bus-test-kit.js";
import type { BusMessage } from "../../kit/src/bus/port.js";
import type { Doc } from "../../kit/src/store/port.js";
import { CrashWorld, crashTestStores } from "./crash-world.js";

/**
 * Admin API writes a crash interrupted between the write and its admin event or cache drop, both
 * staged with it (auditedWrite): the process that starts next records and announces them, with
 * the representation the request built, unless the store shows the write undone (crash-world.ts).
 */
describe.each(crashTestStores())("directory admin writes a crash interrupted (%s)", (_storeName, openTestStore) => {
  const w = CrashWorld.register(openTestStore);

  it("grants, withdrawals and credential changes just before a crash: the next process records each admin event, unless the store shows the write undone", async () => {
    const erin = await w.newUser("erin");
    const frank = await w.newUser("frank");
    await w.roles.createRole({ realm: "acme", clientId: "", role: { name: "auditor" } });
    await w.roles.createRole({ realm: "acme", clientId: "", role: { name: "operator" } });
    await w.roles.assignRoleMappings({ realm: "acme", holderType: HolderType.USER, holderId: frank, clientId: "", roleNames: ["operator"] });
    const group = (await w.groups.createGroup({ realm: "acme", group: { name: "ops" } })).group!.id;
    await w.groups.addUserToGroup({ realm: "acme", userId: frank, groupId: group });
    const client = (await w.clients.createClient({ realm: "acme", client: { clientId: "api" } })).client!;
    const path = (m: BusMessage) => fromBinary(AdminEventSchema, m.payload).resourcePath;
    await waitUntil("the set-up's admin events", () => w.delivered.got.some((m) => m.subject === "iam.directory.v1.admin-event.recorded" && path(m) === `clients/${client.id}`));
    const before = w.delivered.got.length;

    // Each dies at its admin event's publish, its write done.
    w.crashAt(["iam.directory.v1.admin-event.recorded"]);
    const calls = [
      w.roles.assignRoleMappings({ realm: "acme", holderType: HolderType.USER, holderId: erin, clientId: "", roleNames: ["auditor"] }),
      w.roles.assignRoleMappings({ realm: "acme", holderType: HolderType.USER, holderId: frank, clientId: "", roleNames: ["auditor"] }),
      w.roles.removeRoleMappings({ realm: "acme", holderType: HolderType.USER, holderId: frank, clientId: "", roleNames: ["operator"] }),
      w.groups.addUserToGroup({ realm: "acme", userId: erin, groupId: group }),
      w.groups.removeUserFromGroup({ realm: "acme", userId: frank, groupId: group }),
      w.security.resetMfa({ realm: "acme", userId: erin }),
      w.security.unlockUser({ realm: "acme", userId: erin }),
      w.clients.regenerateClientSecret({ realm: "acme", clientId: "api" }),
      w.users.resetPassword({ realm: "acme", userId: frank, password: "Another-Horse-3", temporary: false }),
    ];
    for (const c of calls) void (c as Promise<unknown>).catch(() => undefined);
    const entries = await w.store.collection({ name: "outbox" });
    await waitUntil("every write staged and done", async () => (await entries.count({})) === calls.length
      && (await (await w.store.collection({ name: "group_memberships" })).count({ userId: erin })) === 1
      && (await (await w.store.collection({ name: "role_mappings" })).count({ holderId: frank })) === 1);
    expect(w.delivered.got.slice(before).filter((m) => m.subject === "iam.directory.v1.admin-event.recorded").map(path)).toEqual([]);
    // Frank's new role is taken away again (by another replica, say) before the relay looks: that
    // assignment is no longer what the store shows, so it is not recorded.
    await (await w.store.collection({ name: "role_mappings" })).deleteMany({ holderId: frank, roleId: { $ne: "" } });

    await w.restart(true);
    await waitUntil("the admin events", async () => (await entries.count({})) === 0);
    const recorded = w.delivered.got.slice(before).filter((m) => m.subject === "iam.directory.v1.admin-event.recorded").map((m) => {
      const e = fromBinary(AdminEventSchema, m.payload);
      return `${e.operationType} ${e.resourceType} ${e.resourcePath}`;
    }).sort();
    expect(recorded).toEqual([
      `ACTION CLIENT clients/${client.id}/client-secret`,
      `ACTION USER brute-force/users/${erin}/unlock`,
      `ACTION USER users/${erin}/mfa`,
      `ACTION USER users/${frank}/reset-password`,
      `CREATE GROUP_MEMBERSHIP users/${erin}/groups/${group}`,
      `CREATE REALM_ROLE_MAPPING users/${erin}/role-mappings/realm`,
      `DELETE GROUP_MEMBERSHIP users/${frank}/groups/${group}`,
      `DELETE REALM_ROLE_MAPPING users/${frank}/role-mappings/realm`,
    ].sort());
    // The relayed copy is the one the request built: its representation and the admin who asked.
    const grant = w.delivered.got.find((m) => m.subject === "iam.directory.v1.admin-event.recorded" && path(m) === `users/${erin}/role-mappings/realm`)!;
    const auditor = (await w.roles.getRole({ realm: "acme", clientId: "", name: "auditor" })).role!;
    expect(JSON.parse(fromBinary(AdminEventSchema, grant.payload).representation)).toEqual([{ id: auditor.id, name: "auditor" }]);
  });

  it("creations and updates of configuration just before a crash: the next process records each admin event with the representation the request built", async () => {
    const gina = await w.newUser("gina");
    const parent = (await w.groups.createGroup({ realm: "acme", group: { name: "eng" } })).group!.id;
    const child = (await w.groups.createGroup({ realm: "acme", group: { name: "web", parentId: parent } })).group!.id;
    const client = (await w.clients.createClient({ realm: "acme", client: { clientId: "portal" } })).client!;
    const scope = (await w.scopes.createClientScope({ realm: "acme", scope: { name: "dept" } })).scope!.id;
    const mapper = (await w.scopes.createProtocolMapper({ realm: "acme", scopeId: scope, mapper: {
      name: "dept", mapperType: "oidc-usermodel-attribute-mapper", config: { "claim.name": "dept", "user.attribute": "department" },
    } })).mapper!.id;
    const admin = "iam.directory.v1.admin-event.recorded";
    const path = (m: BusMessage) => fromBinary(AdminEventSchema, m.payload).resourcePath;
    await waitUntil("the set-up's admin events", () => w.delivered.got.some((m) => m.subject === admin && path(m) === `client-scopes/${scope}/protocol-mappers/${mapper}`));
    const before = w.delivered.got.length;

    w.crashAt([admin]);
    const calls: Array<Promise<unknown>> = [
      w.users.updateUser({ realm: "acme", userId: gina, update: { firstName: "Gina", email: "gina@example.test" } }),
      w.groups.updateGroup({ realm: "acme", groupId: parent, update: { name: "engineering", description: "all of it" } }),
      w.clients.updateClient({ realm: "acme", clientId: "portal", update: { redirectUris: ["https://portal.example.test/cb"], redirectUrisPresent: true, requireConsent: true } }),
      w.scopes.updateClientScope({ realm: "acme", scopeId: scope, update: { description: "the department" } }),
      w.scopes.updateProtocolMapper({ realm: "acme", scopeId: scope, mapperId: mapper, update: { config: { "claim.name": "department", "user.attribute": "department", "access.token.claim": "true" }, configPresent: true } }),
      w.roles.createRole({ realm: "acme", clientId: "portal", role: { name: "viewer" } }),
      w.realms.updateRealm({ name: "acme", update: { displayName: "Acme Corp" } }),
    ];
    for (const c of calls) void c.catch(() => undefined);
    const entries = await w.store.collection({ name: "outbox" });
    await waitUntil("every write staged", async () => (await entries.count({})) === calls.length);
    await waitUntil("every write done", async () => (await w.roles.listRoles({ realm: "acme", clientId: "portal" })).roles.length === 1
      && (await w.groups.getGroup({ realm: "acme", groupId: parent })).group!.name === "engineering"
      && (await w.users.getUser({ realm: "acme", userId: gina })).user!.firstName === "Gina"
      && (await w.clients.getClient({ realm: "acme", clientId: "portal" })).client!.requireConsent
      && (await w.scopes.getClientScope({ realm: "acme", scopeId: scope })).scope!.description === "the department"
      && (await w.realms.getRealm({ name: "acme" })).realm!.displayName === "Acme Corp");
    await sleep(50); // the mapper's write, which no read above shows
    expect(w.delivered.got.slice(before).filter((m) => m.subject === admin)).toEqual([]);

    await w.restart(true);
    await waitUntil("the outbox emptied", async () => (await entries.count({})) === 0);
    const recorded = new Map(w.delivered.got.slice(before).filter((m) => m.subject === admin).map((m) => {
      const e = fromBinary(AdminEventSchema, m.payload);
      return [`${e.operationType} ${e.resourceType} ${e.resourcePath}`, JSON.parse(e.representation || "null") as Record<string, unknown>];
    }));
    // Each update is recognised by its record as the write left it, in the store's own JSON.
    expect([...recorded.keys()].sort()).toEqual([
      `CREATE CLIENT_ROLE clients/${client.id}/roles/viewer`,
      `UPDATE CLIENT clients/${client.id}`,
      `UPDATE CLIENT_SCOPE client-scopes/${scope}`,
      `UPDATE GROUP groups/${parent}`,
      `UPDATE PROTOCOL_MAPPER client-scopes/${scope}/protocol-mappers/${mapper}`,
      "UPDATE REALM realms/acme",
      `UPDATE USER users/${gina}`,
    ].sort());
    // The representations are what the request would have answered.
    const now = async () => ({
      user: (await w.users.getUser({ realm: "acme", userId: gina })).user!,
      group: (await w.groups.getGroup({ realm: "acme", groupId: parent })).group!,
    });
    const { user, group } = await now();
    expect(recorded.get(`UPDATE USER users/${gina}`)).toMatchObject({ id: gina, firstName: "Gina", email: "gina@example.test", emailVerified: false, updatedAt: expect.any(String) });
    expect(user.firstName).toBe("Gina");
    expect(recorded.get(`UPDATE GROUP groups/${parent}`)).toMatchObject({ name: "engineering", path: "/engineering", subGroups: [expect.objectContaining({ id: child, path: "/engineering/web" })] });
    expect(group.subGroups.map((g) => g.path)).toEqual(["/engineering/web"]);
    expect(recorded.get(`UPDATE CLIENT clients/${client.id}`)).toMatchObject({ clientId: "portal", redirectUris: ["https://portal.example.test/cb"], requireConsent: true });
    expect(recorded.get(`UPDATE CLIENT clients/${client.id}`)).not.toHaveProperty("secretSealed");
    expect(recorded.get("UPDATE REALM realms/acme")).toMatchObject({ displayName: "Acme Corp" });
    // The cache drops went with them.
    expect(w.delivered.got.slice(before).filter((m) => m.subject === "iam.directory.v1.client.updated").map((m) => fromBinary(ClientUpdatedSchema, m.payload).clientId)).toEqual(["portal"]);
    expect(w.delivered.got.slice(before).filter((m) => m.subject === "iam.directory.v1.realm.updated").map((m) => fromBinary(RealmUpdatedSchema, m.payload).realmName)).toEqual(["acme"]);
  });

  it("client, realm and service-account changes just before a crash, in a realm that records no admin events: the next process announces their cache drops", async () => {
    await w.realms.createRealm({ realm: { name: "plain" } });
    await w.clients.createClient({ realm: "plain", client: { clientId: "web" } });
    await w.clients.createClient({ realm: "plain", client: { clientId: "api" } });
    await w.clients.createClient({ realm: "plain", client: { clientId: "svc", grantTypes: ["client_credentials"], grantTypesPresent: true } });
    const sa = (await w.clients.getServiceAccountUser({ realm: "plain", clientId: "svc" })).user!.id;
    await w.roles.createRole({ realm: "plain", clientId: "", role: { name: "reader" } });
    const dropped = (subject: string) => w.delivered.got.filter((m) => m.subject === subject);
    await sleep(50); // whatever the set-up announced has landed
    const [clientsBefore, realmsBefore] = [dropped("iam.directory.v1.client.updated").length, dropped("iam.directory.v1.realm.updated").length];

    w.crashAt(["iam.directory.v1.client.updated", "iam.directory.v1.realm.updated", "iam.directory.v1.service-account.changed"]);
    const saBefore = dropped("iam.directory.v1.service-account.changed").length;
    const calls: Array<Promise<unknown>> = [
      w.clients.updateClient({ realm: "plain", clientId: "web", update: { redirectUris: ["https://web.example.test/cb"], redirectUrisPresent: true } }),
      w.clients.regenerateClientSecret({ realm: "plain", clientId: "api" }),
      w.realms.updateRealm({ name: "plain", update: { accessTokenLifespan: 60 } }),
      w.roles.assignRoleMappings({ realm: "plain", holderType: HolderType.USER, holderId: sa, clientId: "", roleNames: ["reader"] }),
    ];
    for (const c of calls) void c.catch(() => undefined);
    const entries = await w.store.collection({ name: "outbox" });
    await waitUntil("every write staged and done", async () => (await entries.count({})) === calls.length
      && (await w.clients.getClient({ realm: "plain", clientId: "web" })).client!.redirectUris.length === 1
      && (await w.realms.getRealm({ name: "plain" })).realm!.accessTokenLifespan === 60
      && (await (await w.store.collection({ name: "role_mappings" })).count({ holderId: sa })) === 1);
    expect(dropped("iam.directory.v1.client.updated")).toHaveLength(clientsBefore);
    expect(dropped("iam.directory.v1.realm.updated")).toHaveLength(realmsBefore);
    expect(dropped("iam.directory.v1.service-account.changed")).toHaveLength(saBefore);

    await w.restart(true);
    await waitUntil("the outbox emptied", async () => (await entries.count({})) === 0);
    await waitUntil("the announcements", () => dropped("iam.directory.v1.client.updated").length === clientsBefore + 2);
    expect(dropped("iam.directory.v1.client.updated").slice(clientsBefore).map((m) => fromBinary(ClientUpdatedSchema, m.payload))
      .map((c) => [c.realmName, c.clientId, c.deleted, c.disabled]).sort()).toEqual([["plain", "api", false, false], ["plain", "web", false, false]]);
    expect(dropped("iam.directory.v1.realm.updated").slice(realmsBefore).map((m) => fromBinary(RealmUpdatedSchema, m.payload).realmName)).toEqual(["plain"]);
    await waitUntil("service-account.changed", () => dropped("iam.directory.v1.service-account.changed").length === saBefore + 1);
    expect(fromBinary(ServiceAccountChangedSchema, dropped("iam.directory.v1.service-account.changed")[saBefore]!.payload)).toMatchObject({ realmName: "plain", userId: sa });
    // No admin event: the realm records none.
    expect(w.delivered.got.filter((m) => m.subject === "iam.directory.v1.admin-event.recorded").map((m) => fromBinary(AdminEventSchema, m.payload).realm)).not.toContain("plain");
  });

  it("token-configuration writes just before a crash: the next process announces token-config.changed for each, naming the realm", async () => {
    await w.realms.createRealm({ realm: { name: "plain" } });
    const plainId = (await w.realms.getRealm({ name: "plain" })).realm!.id;
    await w.roles.listRoles({ realm: "plain", clientId: "" }); // its default roles and scopes written (RealmDefaults, on first use)
    const changed = () => w.seen("iam.directory.v1.token-config.changed").map((m) => fromBinary(TokenConfigChangedSchema, m.payload));
    await sleep(50); // whatever the set-up announced has landed
    const before = changed().length;

    w.crashAt(["iam.directory.v1.token-config.changed"]);
    void w.roles.createRole({ realm: "plain", clientId: "", role: { name: "writer" } }).catch(() => undefined);
    void w.scopes.createClientScope({ realm: "plain", scope: { name: "billing" } }).catch(() => undefined);
    const entries = await w.store.collection({ name: "outbox" });
    await waitUntil("both written and staged", async () => (await entries.count({})) === 2
      && (await (await w.store.collection({ name: "roles" })).count({ realmId: plainId, name: "writer" })) === 1
      && (await (await w.store.collection({ name: "client_scopes" })).count({ realmId: plainId, name: "billing" })) === 1);
    expect(changed()).toHaveLength(before);

    await w.restart(true);
    await waitUntil("the outbox emptied", async () => (await entries.count({})) === 0);
    await waitUntil("token-config.changed", () => changed().length === before + 2);
    expect(changed().slice(before).map((e) => [e.realmId, e.realmName])).toEqual([[plainId, "plain"], [plainId, "plain"]]);
  });

  it("a user import cut short by a crash: the next process records the user it had created; the summary is not recorded, the user not reached not created", async () => {
    const adminEvents = () => w.delivered.got.filter((m) => m.subject === "iam.directory.v1.admin-event.recorded").map((m) => fromBinary(AdminEventSchema, m.payload));
    const before = adminEvents().length;
    // The first user's admin event goes out; the process dies at the second's, its user created.
    let recorded = 0;
    w.bus.publish = async (subject, payload, options) => {
      if (subject === "iam.directory.v1.admin-event.recorded" && ++recorded > 1) return new Promise<BusMessage>(() => undefined);
      return w.realPublish(subject, payload, options);
    };
    void w.security.importUsers({ realm: "acme", users: [{ username: "ana" }, { username: "bo", password: "bo-password-1" }, { username: "cy" }] }).catch(() => undefined);
    const userRecords = await w.store.collection<{ _id: string; username: string } & Doc>({ name: "users" });
    await waitUntil("bo created", async () => (await userRecords.findOne({ username: "bo" })) !== null && recorded === 2);

    await w.restart(true);
    const entries = await w.store.collection({ name: "outbox" });
    await waitUntil("the admin events", async () => (await entries.count({})) === 0 && adminEvents().length === before + 2);
    const ids = Object.fromEntries((await userRecords.find({ username: { $in: ["ana", "bo", "cy"] } })).map((u) => [u.username, u._id]));
    expect(Object.keys(ids).sort()).toEqual(["ana", "bo"]);
    expect(adminEvents().slice(before).map((e) => [e.operationType, e.resourceType, e.resourcePath, JSON.parse(e.representation).username])).toEqual([
      ["CREATE", "USER", `users/${ids.ana}`, "ana"],
      ["CREATE", "USER", `users/${ids.bo}`, "bo"],
    ]);
    expect(adminEvents().slice(before).map((e) => e.representation).join("\n")).not.toContain("bo-password-1");
  });
});
