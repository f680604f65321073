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

  it("reads rememberMe as off and its lifespans as 0 for a realm stored before them (Keycloak's defaults)", () => {
    const { rememberMe: _r, ssoSessionIdleTimeoutRememberMe: _i, ssoSessionMaxLifespanRememberMe: _m, ...old } = stored;
    const view = realmView(old as RealmRecord);
    expect([view.rememberMe, view.ssoSessionIdleTimeoutRememberMe, view.ssoSessionMaxLifespanRememberMe]).toEqual([false, 0, 0]);
    const set = realmView({ ...stored, rememberMe: true, ssoSessionIdleTimeoutRememberMe: 600, ssoSessionMaxLifespanRememberMe: 7200 });
    expect([set.rememberMe, set.ssoSessionIdleTimeoutRememberMe, set.ssoSessionMaxLifespanRememberMe]).toEqual([true, 600, 7200]);
  });
});
