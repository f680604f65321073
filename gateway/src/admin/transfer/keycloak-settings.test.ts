import type { Problem } from "../../../../services/kit/src/realm-transfer/document-schema.js";
import { fromKeycloak } from "./keycloak-realm.js";
import { keycloakSettings } from "./keycloak-settings.js";

describe("Keycloak realm settings", () => {
  const notes: string[] = [];
  const note = (path: string, message: string) => notes.push(`${path}: ${message}`);
  beforeEach(() => notes.splice(0));

  it("carries editUsernameAllowed over under its own name, false when Keycloak's document leaves it out", () => {
    expect(keycloakSettings({ realm: "acme", editUsernameAllowed: true }, note).editUsernameAllowed).toBe(true);
    expect(keycloakSettings({ realm: "acme", editUsernameAllowed: false }, note).editUsernameAllowed).toBe(false);
    expect(keycloakSettings({ realm: "acme" }, note).editUsernameAllowed).toBe(false);
    expect(notes).toEqual([]);
  });

  it("reports registrationEmailAsUsername, which Tessera has no equivalent for, and not editUsernameAllowed", () => {
    const report: Problem[] = [];
    const doc = fromKeycloak({ realm: "acme", editUsernameAllowed: true, registrationEmailAsUsername: true }, report) as { realm: Record<string, unknown> };
    expect(doc.realm.editUsernameAllowed).toBe(true);
    expect(report).toEqual([{ path: "$.registrationEmailAsUsername", message: "\"registrationEmailAsUsername\" has no equivalent" }]);
  });

  it("maps rememberMe and its two session lifespans under Keycloak's names, off and 0 when left out", () => {
    const report: Problem[] = [];
    const doc = fromKeycloak({ realm: "acme", rememberMe: true, ssoSessionIdleTimeoutRememberMe: 86_400, ssoSessionMaxLifespanRememberMe: 1_209_600 }, report) as { realm: Record<string, unknown> };
    expect([doc.realm.rememberMe, doc.realm.ssoSessionIdleTimeoutRememberMe, doc.realm.ssoSessionMaxLifespanRememberMe]).toEqual([true, 86_400, 1_209_600]);
    expect(report).toEqual([]);
    const plain = keycloakSettings({ realm: "acme" }, note);
    expect([plain.rememberMe, plain.ssoSessionIdleTimeoutRememberMe, plain.ssoSessionMaxLifespanRememberMe]).toEqual([false, 0, 0]);
    // Keycloak's admin API stores whatever number it was given; a negative one means "not set".
    expect(keycloakSettings({ realm: "acme", ssoSessionMaxLifespanRememberMe: -1 }, note).ssoSessionMaxLifespanRememberMe).toBe(0);
    expect(notes).toEqual([]);
  });
});
