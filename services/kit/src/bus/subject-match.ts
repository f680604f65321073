import { IamError } from "../errors.js";

/**
 * NATS subject rules, shared by both bus adapters so the in-process one accepts and matches exactly
 * what JetStream would: tokens separated by `.`, `*` matches one token, `>` (last token only)
 * matches one or more. Published subjects must be concrete (no wildcards).
 */
const TOKEN = /^[^\s.*>]+$/;

export function assertPublishSubject(subject: string): void {
  const tokens = subject.split(".");
  if (subject.length === 0 || !tokens.every((t) => TOKEN.test(t))) {
    throw IamError.invalid("subject", `invalid publish subject "${subject}"`);
  }
}

export function assertFilterSubject(subject: string): void {
  const tokens = subject.split(".");
  const ok = subject.length > 0 && tokens.every((t, i) =>
    TOKEN.test(t) || t === "*" || (t === ">" && i === tokens.length - 1));
  if (!ok) throw IamError.invalid("subject", `invalid subscription subject "${subject}"`);
}

/** Compiles a filter once; the returned predicate runs per journal entry. */
export function subjectMatcher(filter: string): (subject: string) => boolean {
  assertFilterSubject(filter);
  const want = filter.split(".");
  return (subject) => {
    const have = subject.split(".");
    for (let i = 0; i < want.length; i++) {
      const w = want[i];
      if (w === ">") return have.length > i;
      if (i >= have.length) return false;
      if (w !== "*" && w !== have[i]) return false;
    }
    return have.length === want.length;
  };
}
