import { describe, expect, it } from "@jest/globals";
import { parseFormBody } from "./form-body.js";

/** What the lane gave before the direct path: URLSearchParams, duplicates as arrays. */
function reference(text: string, limit: number): Record<string, string | string[]> | undefined {
  const form: Record<string, string | string[]> = Object.create(null) as Record<string, string | string[]>;
  let count = 0;
  for (const [k, v] of new URLSearchParams(text)) {
    if (++count > limit) return undefined;
    const had = form[k];
    form[k] = had === undefined ? v : Array.isArray(had) ? [...had, v] : [had, v];
  }
  return form;
}

describe("parseFormBody", () => {
  it("splits a plain body, keeping a repeated name as an array in order", () => {
    expect({ ...parseFormBody("grant_type=client_credentials&scope=a&scope=b&scope=c", 100) }).toEqual({ grant_type: "client_credentials", scope: ["a", "b", "c"] });
  });

  it("decodes + and percent escapes, and leaves a malformed escape as it is, as URLSearchParams does", () => {
    expect({ ...parseFormBody("redirect_uri=https%3A%2F%2Fapp%2Fcb&scope=openid+profile&bad=%zz&x=%E2%82%AC", 100) })
      .toEqual({ redirect_uri: "https://app/cb", scope: "openid profile", bad: "%zz", x: "\u20ac" });
  });

  it("drops one leading ?, skips empty pairs, and takes a name without = as an empty value", () => {
    expect({ ...parseFormBody("?a=1&&b&=c&d==e&", 100) }).toEqual({ a: "1", b: "", "": "c", d: "=e" });
    expect({ ...parseFormBody("", 100) }).toEqual({});
    expect({ ...parseFormBody("??a=1", 100) }).toEqual({ "?a": "1" });
  });

  it("keeps __proto__ a parameter, never the prototype", () => {
    const form = parseFormBody("__proto__=x&constructor=y", 100)!;
    expect(Object.getPrototypeOf(form)).toBeNull();
    expect(form["__proto__"]).toBe("x");
    expect(form["constructor"]).toBe("y");
  });

  it("answers undefined past the parameter limit, on both paths", () => {
    expect(parseFormBody("a=1&b=2&c=3", 3)).toBeDefined();
    expect(parseFormBody("a=1&b=2&c=3&d=4", 3)).toBeUndefined();
    expect(parseFormBody("a=1&b=2&c=3&d=%20", 3)).toBeUndefined();
    expect(parseFormBody("a&a&a&a", 3)).toBeUndefined(); // repeats count
  });

  it("gives what URLSearchParams gives on 20,000 random bodies", () => {
    const alphabet = ["a", "b", "=", "&", "?", "%", "+", "2", "0", "F", "\u00e9", "\u20ac", "\ud83d\ude00", " ", "_", "."];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let i = 0; i < 20000; i++) {
      let text = "";
      const len = Math.floor(next() * 24);
      // Half the bodies avoid % and + so the direct path is exercised as often as the decoding one.
      const plain = i % 2 === 0;
      while (text.length < len) {
        const c = alphabet[Math.floor(next() * alphabet.length)]!;
        if (!plain || (c !== "%" && c !== "+")) text += c;
      }
      const limit = 1 + Math.floor(next() * 6);
      const got = parseFormBody(text, limit);
      const want = reference(text, limit);
      if (want === undefined) expect({ text, got }).toEqual({ text, got: undefined });
      else expect({ text, got: got && { ...got } }).toEqual({ text, got: { ...want } });
    }
  });
});
