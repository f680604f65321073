import { IamError } from "../../../kit/src/errors.js";
import { checkUsername, legacyUsernameKeyOf, usernameKeyOf } from "./username.js";

function refusal(value: string): IamError {
  try {
    checkUsername(value);
  } catch (e) {
    return e as IamError;
  }
  throw new Error(`"${value}" was accepted`);
}

// Keycloak's default user profile (username-prohibited-characters, up-username-not-idn-homograph).
describe("checkUsername", () => {
  it.each(["<script>x</script>", "../../admin", "a/b", 'x"y', "a;b", "a b", "a\tb", "back\\slash", "it's", "a&b", "a:b", "a,b", "a=b", "a(b)", "a`b", "a|b", "a$b", "a%b", "a!b", "a#b", "a?b", "a*b", "a~b", "a^b", "a[b]", "a{b}", "a§b"])(
    "refuses %j with 400 naming username", (value) => {
      const e = refusal(value);
      expect(e.code).toBe("invalidArgument");
      expect(e.field).toBe("username");
      expect(e.message).toMatch(/^username must not contain /);
    },
  );

  it.each(["alice", "Alice.Smith", "bob-1", "carol_x", "dave@example.com", "čeněk", "Ηλίας", "Юлия", "山田太郎", "42"])("accepts %j", (value) => {
    expect(checkUsername(value)).toBe(value);
  });

  it("refuses letters of confusable scripts mixed (a Cyrillic а in a Latin name)", () => {
    const e = refusal("p\u0430ypal");
    expect(e.field).toBe("username");
    expect(e.message).toBe("username must not mix Latin and Cyrillic letters");
  });

  it("stores the NFKC form, trimmed: fullwidth ｃａｒｏｌ is carol", () => {
    expect(checkUsername("  ｃａｒｏｌ ")).toBe("carol");
    expect(checkUsername("ﬁona")).toBe("fiona");
    expect(usernameKeyOf("ＣＡＲＯＬ")).toBe("carol");
    expect(usernameKeyOf("Carol")).toBe("carol");
  });

  it("keeps the lower-cased key of users stored before normalisation for lookups", () => {
    expect(legacyUsernameKeyOf("ＣＡＲＯＬ")).toBe("ｃａｒｏｌ");
    expect(legacyUsernameKeyOf("Carol")).toBe(usernameKeyOf("Carol"));
  });

  it("keeps the length bounds and the required check", () => {
    expect(refusal("a").field).toBe("username");
    expect(refusal("x".repeat(256)).field).toBe("username");
    expect(refusal(undefined as unknown as string).message).toBe("username is required");
    expect(refusal("a\u0000b").message).toBe("username must not contain control characters");
  });
});
