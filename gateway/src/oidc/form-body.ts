/**
 * An `application/x-www-form-urlencoded` body (RFC 6749 section 3.2, parsed as the URL Standard's
 * form parser does, which URLSearchParams implements): a parameter sent twice becomes an array
 * (formParam refuses it, RFC 6749 section 3.1); undefined when over `parameterLimit`.
 *
 * A body with no `%` and no `+` needs no decoding, and most token requests are such bodies
 * (`grant_type=client_credentials`, a refresh token, a device code): those are split directly.
 * URLSearchParams' iterator costs several microseconds per body, a measurable share of the token
 * endpoint's main thread (docs/performance.md). Anything else goes through URLSearchParams,
 * so both paths give the same answer (form-body.test.ts compares them on random bodies).
 */
export function parseFormBody(text: string, parameterLimit: number): Record<string, string | string[]> | undefined {
  // No prototype: a parameter named "__proto__" stays a parameter.
  const form = Object.create(null) as Record<string, string | string[]>;
  let count = 0;
  const add = (k: string, v: string): boolean => {
    if (++count > parameterLimit) return false;
    const had = form[k];
    form[k] = had === undefined ? v : Array.isArray(had) ? [...had, v] : [had, v];
    return true;
  };
  if (text.includes("%") || text.includes("+")) {
    for (const [k, v] of new URLSearchParams(text)) if (!add(k, v)) return undefined;
    return form;
  }
  // As URLSearchParams: one leading "?" is dropped, empty sequences between "&" are skipped, and a
  // sequence without "=" is a name with an empty value.
  let start = text.startsWith("?") ? 1 : 0;
  while (start <= text.length) {
    let end = text.indexOf("&", start);
    if (end < 0) end = text.length;
    if (end > start) {
      const eq = text.indexOf("=", start);
      const ok = eq >= 0 && eq < end ? add(text.slice(start, eq), text.slice(eq + 1, end)) : add(text.slice(start, end), "");
      if (!ok) return undefined;
    }
    start = end + 1;
  }
  return form;
}
