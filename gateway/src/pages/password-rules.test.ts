import { passwordRules } from "./password-rules.js";

// The realm's password policy (spec 2.1) as the registration, update and reset pages list it.
describe("passwordRules", () => {
  const none = { passwordMinLength: 8, passwordRequireUppercase: false, passwordRequireLowercase: false, passwordRequireDigits: false, passwordRequireSpecialChars: false, passwordHistoryCount: 0 };

  it("lists only the length for the default policy", () => {
    expect(passwordRules(none)).toEqual(["At least 8 characters"]);
  });

  it("lists every rule the realm sets, in a fixed order", () => {
    expect(passwordRules({ passwordMinLength: 12, passwordRequireUppercase: true, passwordRequireLowercase: true, passwordRequireDigits: true, passwordRequireSpecialChars: true, passwordHistoryCount: 5 }))
      .toEqual(["At least 12 characters", "An uppercase letter", "A lowercase letter", "A digit", "A special character", "Not one of your last 5 passwords"]);
    expect(passwordRules({ ...none, passwordHistoryCount: 1 })).toEqual(["At least 8 characters", "Not your previous password"]);
  });
});
