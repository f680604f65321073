import { SqliteStore } from "../../../kit/src/store/sqlite-store.js";
import { systemClock } from "../../../kit/src/store/port.js";
import { ClientScopeRepository } from "../store/client-scope-repository.js";
import { RoleRepository } from "../store/role-repository.js";
import { consentText, onConsentScreen } from "./consent-screen.js";
import type { RealmRecord } from "./realm.js";
import { RealmDefaults } from "./realm-defaults.js";

describe("consent screen of client scopes", () => {
  const realm = { _id: "r1", name: "acme" } as RealmRecord;
  let store: SqliteStore;
  let scopes: ClientScopeRepository;

  beforeEach(async () => {
    store = new SqliteStore({ path: ":memory:", sweepIntervalMs: 0 });
    scopes = await ClientScopeRepository.open(store);
    await (await RealmDefaults.open(store, await RoleRepository.open(store), scopes, systemClock)).ensure(realm);
  });
  afterEach(async () => store.close());

  const shown = async () => (await scopes.listScopes(realm._id)).filter(onConsentScreen).map((s) => s.name);

  it("lists every built-in but roles, web-origins, acr and basic (Keycloak's), with Keycloak's consent texts", async () => {
    expect(await shown()).toEqual(["address", "email", "offline_access", "organization", "phone", "profile"]);
    const all = await scopes.listScopes(realm._id);
    expect(all.filter(onConsentScreen).map((s) => consentText(s))).toEqual(["Address", "Email address", "Offline Access", "Organization", "Phone number", "User profile"]);
    // An admin's own description of a built-in is what the screen says then.
    const email = all.find((s) => s.name === "email")!;
    await scopes.updateScope(realm._id, email._id, { description: "Your e-mail" });
    expect(consentText((await scopes.findScope(realm._id, email._id))!)).toBe("Your e-mail");
  });

  it("keeps a renamed built-in hidden, lists an admin's scope of a deleted built-in's name, and falls back to the name", async () => {
    const all = await scopes.listScopes(realm._id);
    await scopes.updateScope(realm._id, all.find((s) => s.name === "roles")!._id, { name: "user-roles" });
    await scopes.deleteScope(realm._id, all.find((s) => s.name === "acr")!._id);
    await scopes.insertScope({ _id: "mine", realmId: realm._id, name: "acr", description: "", protocol: "openid-connect", createdAt: 1 });
    expect(await shown()).toEqual(["acr", "address", "email", "offline_access", "organization", "phone", "profile"]);
    expect(consentText((await scopes.findScope(realm._id, "mine"))!)).toBe("acr");
  });
});
