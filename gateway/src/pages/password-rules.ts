import { translator, type Translate } from "../../../services/kit/src/i18n/message-bundles.js";

const ENGLISH = translator("en");

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
export function passwordRules(p: PasswordPolicyFields, t: Translate = ENGLISH): string[] {
  const rules = [t("passwordRuleMinLength", p.passwordMinLength || 8)];
  if (p.passwordRequireUppercase) rules.push(t("passwordRuleUppercase"));
  if (p.passwordRequireLowercase) rules.push(t("passwordRuleLowercase"));
  if (p.passwordRequireDigits) rules.push(t("passwordRuleDigit"));
  if (p.passwordRequireSpecialChars) rules.push(t("passwordRuleSpecial"));
  if (p.passwordHistoryCount > 0) rules.push(p.passwordHistoryCount === 1 ? t("passwordRuleNotPrevious") : t("passwordRuleHistory", p.passwordHistoryCount));
  return rules;
}
