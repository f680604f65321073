import { realmView } from "./realm-view.js";
import { REALM_DEFAULTS, type RealmRecord } from "./realm.js";

describe("realmView", () => {
  const stored = {
    ...REALM_DEFAULTS, _id: "r1", name: "acme", displayName: "", themeName: "tessera", theme: {}, loginTheme: "tessera",
    accountTheme: "tessera", emailTheme: "tessera", createdAt: 0, updatedAt: 0,
  } as RealmRecord;

  it("reads editUsernameAllowed as false for a realm stored before the setting existed (Keycloak's default)", () => {
    const { editUsernameAllowed: _absent, ...old } = stored;
    expect("editUsernameAllowed" in old).toBe(false);
    expect(realmView(old as RealmRecord).editUsernameAllowed).toBe(false);
  });

  it("shows editUsernameAllowed as stored", () => {
    expect(realmView({ ...stored, editUsernameAllowed: true }).editUsernameAllowed).toBe(true);
    expect(realmView({ ...stored, editUsernameAllowed: false }).editUsernameAllowed).toBe(false);
  });
});
