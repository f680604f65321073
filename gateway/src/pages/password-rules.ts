/** The realm's password policy fields (spec 2.1) the pages describe. */
export interface PasswordPolicyFields {
  passwordMinLength: number;
  passwordRequireUppercase: boolean;
  passwordRequireLowercase: boolean;
  passwordRequireDigits: boolean;
  passwordRequireSpecialChars: boolean;
  passwordHistoryCount: number;
}

/**
 * The realm's password policy as the registration, password update and reset pages list it, one
 * line per rule, before the user types (the directory names any rule a password then fails).
 */
export function passwordRules(p: PasswordPolicyFields): string[] {
  const rules = [`At least ${p.passwordMinLength || 8} characters`];
  if (p.passwordRequireUppercase) rules.push("An uppercase letter");
  if (p.passwordRequireLowercase) rules.push("A lowercase letter");
  if (p.passwordRequireDigits) rules.push("A digit");
  if (p.passwordRequireSpecialChars) rules.push("A special character");
  if (p.passwordHistoryCount > 0) rules.push(p.passwordHistoryCount === 1 ? "Not your previous password" : `Not one of your last ${p.passwordHistoryCount} passwords`);
  return rules;
}
