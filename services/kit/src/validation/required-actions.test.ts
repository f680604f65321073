import { IamError } from "../errors.js";
import { checkRequiredActions, orderedActions } from "./required-actions.js";

describe("required actions", () => {
  it("orders a set by Keycloak's default priorities, dropping duplicates", () => {
    expect(orderedActions(["VERIFY_EMAIL", "UPDATE_PROFILE", "UPDATE_PASSWORD", "TERMS_AND_CONDITIONS", "CONFIGURE_TOTP", "UPDATE_PROFILE"]))
      .toEqual(["CONFIGURE_TOTP", "TERMS_AND_CONDITIONS", "UPDATE_PASSWORD", "UPDATE_PROFILE", "VERIFY_EMAIL"]);
    expect(orderedActions([])).toEqual([]);
  });

  it("refuses unknown or wrongly cased names, naming the field", () => {
    expect(checkRequiredActions("requiredActions", ["UPDATE_PROFILE", "TERMS_AND_CONDITIONS"])).toEqual(["TERMS_AND_CONDITIONS", "UPDATE_PROFILE"]);
    for (const bad of [["update_password"], ["UPDATE_PROFILE", "webauthn-register"], [42], [null]]) {
      let thrown: unknown;
      try {
        checkRequiredActions("requiredActions", bad);
      } catch (e) {
        thrown = e;
      }
      expect(thrown).toBeInstanceOf(IamError);
      expect([(thrown as IamError).code, (thrown as IamError).field]).toEqual(["invalidArgument", "requiredActions"]);
    }
  });
});
