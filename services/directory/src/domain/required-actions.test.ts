import { actionDone, requiredActions } from "./required-actions.js";
import type { RealmRecord } from "./realm.js";
import type { UserRecord } from "./user.js";
import { userRequiredActions } from "./user.js";

const realm = (over: Partial<RealmRecord> = {}) => ({ mfaRequired: false, passwordMaxAgeDays: 0, requireEmailVerification: false, ...over }) as RealmRecord;
const user = (over: Partial<UserRecord> = {}) => ({ requirePasswordReset: false, emailVerified: false, requiredActions: [], ...over }) as unknown as UserRecord;

describe("pending required actions", () => {
  it("lists the user's and the realm's in Keycloak's priority order", () => {
    const u = user({ requiredActions: ["VERIFY_EMAIL", "UPDATE_PROFILE", "TERMS_AND_CONDITIONS"], requirePasswordReset: true });
    expect(requiredActions(realm({ mfaRequired: true }), u, null, false, 0))
      .toEqual(["CONFIGURE_TOTP", "TERMS_AND_CONDITIONS", "UPDATE_PASSWORD", "UPDATE_PROFILE", "VERIFY_EMAIL"]);
  });

  it("skips what is already done: TOTP configured, the email verified", () => {
    const u = user({ requiredActions: ["CONFIGURE_TOTP", "VERIFY_EMAIL"], emailVerified: true });
    expect(requiredActions(realm(), u, null, true, 0)).toEqual([]);
    expect(requiredActions(realm({ requireEmailVerification: true }), user(), null, false, 0)).toEqual(["VERIFY_EMAIL"]);
  });

  it("shows UPDATE_PASSWORD as requirePasswordReset and removes a done action from the list only", () => {
    expect(userRequiredActions(user({ requiredActions: ["UPDATE_PROFILE"], requirePasswordReset: true }))).toEqual(["UPDATE_PASSWORD", "UPDATE_PROFILE"]);
    expect(userRequiredActions({ requirePasswordReset: false })).toEqual([]);
    expect(actionDone(user({ requiredActions: ["TERMS_AND_CONDITIONS", "UPDATE_PROFILE"] }), "TERMS_AND_CONDITIONS")).toEqual({ requiredActions: ["UPDATE_PROFILE"] });
    expect(actionDone(user({ requiredActions: ["UPDATE_PROFILE"] }), "TERMS_AND_CONDITIONS")).toEqual({});
  });
});
