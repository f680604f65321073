import argon2 from "argon2";
import bcryptjs from "bcryptjs";
import { hashFormat, verifyStoredHash } from "./stored-hash.js";

/**
 * Stored and imported hashes: which formats are accepted, and within what cost. `bcryptjs` and the
 * reference `argon2` write the hashes, as the systems users are imported from would.
 */
describe("stored hashes", () => {
  const pw = "Imported-pw-1";

  it("verifies bcrypt hashes of every accepted prefix, and only with the right password", async () => {
    const b = await bcryptjs.hash(pw, 4);
    const hashes = [b, b.replace(/^\$2b\$/, "$2a$"), b.replace(/^\$2b\$/, "$2y$")];
    const out = [];
    for (const h of hashes) out.push([hashFormat(h), verifyStoredHash(h, pw), verifyStoredHash(h, `${pw}x`)]);
    expect(out).toEqual(hashes.map(() => ["bcrypt", true, false]));
  });

  it("compares bcrypt passwords on their first 72 bytes, as bcrypt and the systems it comes from do", async () => {
    const long = `${"ü".repeat(36)}tail`;
    const h = await bcryptjs.hash(long, 4);
    expect([verifyStoredHash(h, long), verifyStoredHash(h, `${"ü".repeat(36)}other`), verifyStoredHash(h, "ü".repeat(35))])
      .toEqual([true, true, false]);
  });

  it("refuses bcrypt costs outside 4..16 and argon2 parameters beyond the configurable ceilings", async () => {
    const b = await bcryptjs.hash(pw, 4);
    const withCost = (c: string) => b.replace(/^\$2b\$04\$/, `$2b$${c}$`);
    expect([withCost("03"), withCost("04"), withCost("16"), withCost("17"), withCost("31")].map(hashFormat))
      .toEqual([null, "bcrypt", "bcrypt", null, null]);
    const a = await argon2.hash(pw, { type: argon2.argon2id, memoryCost: 4096, timeCost: 2, parallelism: 1 });
    const params = /\$(m=[^$]+)\$/.exec(a)![1]!;
    const withParams = (p: string) => a.replace(params, p);
    expect([
      withParams("m=4096,t=2,p=1"), withParams("p=1,t=2,m=4096"), withParams("m=4194304,t=100,p=16"),
      withParams("m=4194305,t=2,p=1"), withParams("m=4096,t=101,p=1"), withParams("m=4096,t=2,p=17"),
      withParams("m=4096,t=2"), withParams("m=4096,t=2,p=1,m=8"), withParams("m=0,t=2,p=1"), withParams("m=x,t=2,p=1"),
    ].map(hashFormat)).toEqual(["argon2", "argon2", "argon2", null, null, null, null, null, null, null]);
    // A refused hash never matches, whatever the password.
    expect(verifyStoredHash(withParams("m=4194305,t=2,p=1"), pw)).toBe(false);
    expect(verifyStoredHash(withCost("17"), pw)).toBe(false);
  });
});
