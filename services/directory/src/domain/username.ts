import { IamError } from "../../../kit/src/errors.js";
import { checkLength } from "../../../kit/src/validation/checks.js";

/**
 * What Keycloak's default user profile refuses in a username (its username-prohibited-characters
 * validator): markup and quoting (`< > & " '`), whitespace, shell and path characters
 * (`$ % ! # ? § , ; : * ~ / \ | ^ = [ ] { } ( )` and the backtick), and control characters. So
 * `<script>x</script>`, `../../admin`, `a/b`, `x"y` and `a;b` are refused, while letters and
 * digits of any script, `.`, `-`, `_` and `@` (an email as username) are fine.
 */
const PROHIBITED = /[<>&"'\s$%!#?§,;:*~/\\|^=[\]{}()`\p{Cc}]/u;

/**
 * Scripts whose letters are confused with one another (Keycloak's up-username-not-idn-homograph
 * guards the same): a username that mixes them, such as Latin "pаypal" with a Cyrillic "а", is
 * refused. One script alone is fine, as are other scripts, and digits or symbols with any.
 */
const CONFUSABLE_SCRIPTS: Array<[string, RegExp]> = [
  ["Latin", /\p{Script=Latin}/u],
  ["Cyrillic", /\p{Script=Cyrillic}/u],
  ["Greek", /\p{Script=Greek}/u],
];

/**
 * The stored form of a username: Unicode NFKC (so fullwidth `ｃａｒｏｌ` is `carol` and a
 * ligature is its letters: the forms a person cannot tell apart are one), trimmed.
 */
export function normalizeUsername(value: string): string {
  return value.normalize("NFKC").trim();
}

/** The key of the case-insensitive unique index (realmId + usernameKey): the NFKC form, lower-cased. */
export function usernameKeyOf(username: string): string {
  return normalizeUsername(username).toLowerCase();
}

/**
 * The key a user created before usernames were NFKC-normalised was stored under (lower-cased only).
 * It differs from usernameKeyOf only for a username with compatibility characters (fullwidth,
 * ligatures): lookups by username try it second, so such a user still logs in and is found.
 */
export function legacyUsernameKeyOf(username: string): string {
  return username.trim().toLowerCase();
}

/**
 * Whether a username sent in an update renames the user: trimmed, compared with the stored one
 * exactly. A username sent back unchanged (a full representation) is no rename and is not checked
 * again, so a user created before the character rules keeps working and stays editable.
 */
export function renames(sent: string, stored: string): boolean {
  return sent.trim() !== stored;
}

/**
 * Spec 2.2 / 8: username required on create; normalised (normalizeUsername), at least 2 and at
 * most 255 characters, none of them prohibited (PROHIBITED), letters of one confusable script.
 * Returns the normalised username, which is what is stored. 400 naming `username` otherwise.
 */
export function checkUsername(value: string | undefined): string {
  if (value === undefined) throw IamError.invalid("username", "username is required");
  const v = normalizeUsername(value);
  if (/\p{Cc}/u.test(v)) throw IamError.invalid("username", "username must not contain control characters");
  const bad = PROHIBITED.exec(v);
  if (bad) {
    const shown = /\s/u.test(bad[0]) ? "whitespace" : `"${bad[0]}"`;
    throw IamError.invalid("username", `username must not contain ${shown}: letters, digits and . - _ @ are allowed`);
  }
  const scripts = CONFUSABLE_SCRIPTS.filter(([, re]) => re.test(v)).map(([name]) => name);
  if (scripts.length > 1) throw IamError.invalid("username", `username must not mix ${scripts.join(" and ")} letters`);
  return checkLength("username", v, 2, 255);
}
