import { describe, expect, it } from "@jest/globals";
import { VerifiedSignatures } from "./verified-signatures.js";

describe("VerifiedSignatures", () => {
  const at = 1_800_000_000_000;
  const claims = { sub: "u1", iat: at / 1000 - 10, exp: at / 1000 + 60, nbf: at / 1000 - 10 };

  it("answers a token verified before under the same key, as a copy, until it expires", () => {
    const v = new VerifiedSignatures();
    expect(v.get("r1", "a.b.c", "k1", "RS256", at)).toBeUndefined();
    v.remember("r1", "a.b.c", "k1", "RS256", claims);
    const got = v.get("r1", "a.b.c", "k1", "RS256", at)!;
    expect(got).toEqual(claims);
    got.sub = "changed";
    expect(v.get("r1", "a.b.c", "k1", "RS256", at)!.sub).toBe("u1");
    // exp <= now is expired (RFC 7519 section 4.1.4, in whole seconds as jose checks it).
    expect(v.get("r1", "a.b.c", "k1", "RS256", at + 59_999)).toEqual(claims);
    expect(v.get("r1", "a.b.c", "k1", "RS256", at + 60_000)).toBeUndefined();
  });

  it("knows nothing of another realm, another key or algorithm, another token, or one not yet valid", () => {
    const v = new VerifiedSignatures();
    v.remember("r1", "a.b.c", "k1", "RS256", { ...claims, nbf: at / 1000 + 5 });
    expect(v.get("r1", "a.b.c", "k1", "RS256", at)).toBeUndefined(); // nbf > now
    expect(v.get("r1", "a.b.c", "k1", "RS256", at + 5_000)).toBeDefined();
    expect(v.get("r2", "a.b.c", "k1", "RS256", at + 5_000)).toBeUndefined();
    expect(v.get("r1", "a.b.c", "k2", "RS256", at + 5_000)).toBeUndefined();
    expect(v.get("r1", "a.b.c", "k1", "PS256", at + 5_000)).toBeUndefined();
    expect(v.get("r1", "a.b.d", "k1", "RS256", at + 5_000)).toBeUndefined();
  });

  it("keeps a bounded number of tokens, dropping the oldest", () => {
    const v = new VerifiedSignatures();
    for (let i = 0; i < 4097; i++) v.remember("r1", `t.${i}.s`, "k1", "RS256", claims);
    expect(v.get("r1", "t.0.s", "k1", "RS256", at)).toBeUndefined();
    expect(v.get("r1", "t.1.s", "k1", "RS256", at)).toBeDefined();
    expect(v.get("r1", "t.4096.s", "k1", "RS256", at)).toBeDefined();
  });
});
