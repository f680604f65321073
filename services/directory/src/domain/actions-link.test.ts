import { SecretBox, generateMasterKey } from "../../../kit/src/crypto/secret-box.js";
import { IamError } from "../../../kit/src/errors.js";
import { actionsLink, openActionsKey } from "./actions-link.js";
import { checkActions } from "./execute-actions.js";
import { lifespanText } from "./lifespan-text.js";
import { resetLink, openResetKey } from "./reset-link.js";

// The execute-actions link (Keycloak's ExecuteActionsActionToken): sealed, bound to its purpose,
// expiring; and Keycloak's RequiredActionsValidator and link-lifetime wording.
describe("execute-actions link", () => {
  const secrets = new SecretBox(generateMasterKey());
  const realm = { _id: "r-1", name: "acme" };
  const now = 1_700_000_000_000;
  const keyOf = (link: string) => new URL(link).searchParams.get("key")!;
  const grant = { userId: "u-1", email: "ann@example.com", actions: ["UPDATE_PASSWORD", "VERIFY_EMAIL"] as const, expiresAt: now + 60_000 };

  it("opens to its grant at Keycloak's action-token path, until it expires", () => {
    const link = actionsLink(secrets, "https://id.example.com/", realm, { ...grant, actions: [...grant.actions], clientId: "spa", redirectUri: "https://app/cb" });
    expect(link).toMatch(/^https:\/\/id\.example\.com\/realms\/acme\/login-actions\/action-token\?key=[A-Za-z0-9_-]+$/);
    expect(openActionsKey(secrets, keyOf(link), now + 59_999)).toEqual({
      realmId: "r-1", userId: "u-1", email: "ann@example.com", actions: ["UPDATE_PASSWORD", "VERIFY_EMAIL"], expiresAt: now + 60_000,
      clientId: "spa", redirectUri: "https://app/cb",
    });
    expect(openActionsKey(secrets, keyOf(link), now + 60_000)).toBeNull();
  });

  it("gives every mail its own key, and refuses altered keys, other keys and other servers' keys", () => {
    const a = keyOf(actionsLink(secrets, "https://id", realm, { ...grant, actions: [...grant.actions] }));
    const b = keyOf(actionsLink(secrets, "https://id", realm, { ...grant, actions: [...grant.actions] }));
    expect(a).not.toBe(b);
    expect(openActionsKey(secrets, `${a.slice(0, -2)}AA`, now)).toBeNull();
    expect(openActionsKey(new SecretBox(generateMasterKey()), a, now)).toBeNull();
    const reset = keyOf(resetLink(secrets, "https://id", realm, "u-1", 0, now));
    expect(openActionsKey(secrets, reset, now)).toBeNull();
    expect(openResetKey(secrets, a, now)).toBeNull();
    expect(openActionsKey(secrets, "", now)).toBeNull();
  });

  it("takes the required actions the login pages run, each once, and refuses any other with Keycloak's message", () => {
    expect(checkActions(["VERIFY_EMAIL", "UPDATE_PASSWORD", "VERIFY_EMAIL", "CONFIGURE_TOTP"])).toEqual(["VERIFY_EMAIL", "UPDATE_PASSWORD", "CONFIGURE_TOTP"]);
    expect(checkActions(["TERMS_AND_CONDITIONS", "UPDATE_PROFILE"])).toEqual(["TERMS_AND_CONDITIONS", "UPDATE_PROFILE"]);
    expect(checkActions([])).toEqual([]);
    for (const bad of [["UPDATE_EMAIL"], ["update_password"], ["VERIFY_EMAIL", "delete_account"]]) {
      let caught: unknown;
      try { checkActions(bad); } catch (e) { caught = e; }
      expect(caught).toBeInstanceOf(IamError);
      expect([(caught as IamError).reason, (caught as IamError).message]).toEqual(["invalid_required_actions", "Provided invalid required actions"]);
    }
  });

  it("words a lifetime in its largest whole unit", () => {
    expect([lifespanText(43_200), lifespanText(300), lifespanText(86_400), lifespanText(90), lifespanText(3_600), lifespanText(1)])
      .toEqual(["12 hours", "5 minutes", "1 day", "90 seconds", "1 hour", "1 second"]);
  });
});
