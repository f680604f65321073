import { renderUsernameTemplate } from "./username-template.js";

describe("username template (Keycloak's UsernameTemplateMapper)", () => {
  const claims = { preferred_username: "JDoe", email: "John.Doe@Corp.Test", address: { locality: "Oslo" }, "a.b": "dotted" };

  it("substitutes ALIAS and claims, nested and escaped, absent as empty", () => {
    expect(renderUsernameTemplate("${ALIAS}.${CLAIM.preferred_username}", { alias: "corp", claims })).toBe("corp.JDoe");
    expect(renderUsernameTemplate("${CLAIM.address.locality}-${CLAIM.a\\.b}-${CLAIM.missing}", { alias: "corp", claims })).toBe("Oslo-dotted-");
    expect(renderUsernameTemplate("${OTHER}", { alias: "corp", claims })).toBe("OTHER");
  });

  it("applies the transformers in order", () => {
    expect(renderUsernameTemplate("${CLAIM.email | lowercase}", { alias: "corp", claims })).toBe("john.doe@corp.test");
    expect(renderUsernameTemplate("${CLAIM.email | localpart | uppercase}@${ALIAS}", { alias: "corp", claims })).toBe("JOHN.DOE@corp");
    expect(renderUsernameTemplate("${UUID}", { alias: "corp", claims })).toMatch(/^[0-9a-f-]{36}$/);
  });
});
