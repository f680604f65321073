/**
 * The directory's refusal of a new password, as the pages list it (registration, UPDATE_PASSWORD
 * required action): one line per failed rule, since the directory names every failed password
 * policy rule in one message (spec 2.1 password* fields); any other refusal (password history...)
 * as one sentence.
 */
export function messagesOf(raw: string): string[] {
  const m = /^password does not meet the password policy: (.*)$/.exec(raw);
  if (!m) return [raw.charAt(0).toUpperCase() + raw.slice(1)];
  return ["The password does not meet the password policy:", ...(m[1] ?? "").split(", ").map((r) => `- ${r}`)];
}
