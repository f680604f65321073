import { escapeDnValue, escapeFilterValue, isAttributeName, isDistinguishedName } from "./ldap-text.js";

describe("LDAP text rules", () => {
  it("escapes filter values per RFC 4515 section 3", () => {
    expect(escapeFilterValue("*")).toBe("\\2a");
    expect(escapeFilterValue("*)(uid=*))(|(uid=*")).toBe("\\2a\\29\\28uid=\\2a\\29\\29\\28|\\28uid=\\2a");
    expect(escapeFilterValue("a\u0000b\\c")).toBe("a\\00b\\5cc");
    expect(escapeFilterValue("Zoë")).toBe("Zoë");
  });

  it("escapes DN values per RFC 4514 section 2.4 and accepts what it produced", () => {
    expect(escapeDnValue("Smith, John")).toBe("Smith\\, John");
    expect(escapeDnValue("a+b")).toBe("a\\+b");
    expect(escapeDnValue('say "hi"')).toBe('say \\"hi\\"');
    expect(escapeDnValue("back\\slash")).toBe("back\\\\slash");
    expect(escapeDnValue("#hash")).toBe("\\#hash");
    expect(escapeDnValue(" padded ")).toBe("\\ padded\\ ");
    for (const v of ["Smith, John", "a+b", 'say "hi"', "back\\slash", "#hash", " padded ", "Zoë 山田", "x;y<z>"]) {
      expect([v, isDistinguishedName(`cn=${escapeDnValue(v)},dc=example,dc=test`)]).toEqual([v, true]);
    }
  });

  it("tells distinguished names from other strings (RFC 4514 section 3)", () => {
    for (const dn of ["dc=example,dc=test", "cn=admin, dc=example, dc=test", "uid=a+cn=b,ou=x", "cn=#04024869,dc=x", "2.5.4.3=x,dc=y", "cn=a\\2cb,dc=x"]) {
      expect([dn, isDistinguishedName(dn)]).toEqual([dn, true]);
    }
    for (const dn of ["", "admin", "cn=a,,dc=x", "cn=a\"b,dc=x", "cn=a\\", "cn=a\\zz", "=a,dc=x", "cn=#0,dc=x", "cn=a;dc=x", "dc=x,"]) {
      expect([dn, isDistinguishedName(dn)]).toEqual([dn, false]);
    }
  });

  it("accepts attribute names and numeric OIDs only", () => {
    expect(["uid", "entryUUID", "objectGUID", "sAMAccountName", "2.5.4.3", "cn;lang-en"].every(isAttributeName)).toBe(true);
    expect(["", "u id", "1uid", "uid)(x", "uid=*"].some(isAttributeName)).toBe(false);
  });
});
