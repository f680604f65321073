import { IamError } from "../../../kit/src/errors.js";
import { aliasFromName, checkDomains, emailDomain } from "./organization-rules.js";
import { baseScopeName, requestedOrganization } from "../../../kit/src/validation/organization-scope.js";

describe("organization rules", () => {
  it("lower-cases domains, defaults verified to false, and refuses duplicates and single labels", () => {
    expect(checkDomains([{ name: " Acme.COM " }, { name: "b.acme.com", verified: true }])).toEqual([
      { name: "acme.com", verified: false }, { name: "b.acme.com", verified: true },
    ]);
    expect(() => checkDomains([{ name: "a.com" }, { name: "A.COM" }])).toThrow('domain "a.com" is listed twice');
    expect(() => checkDomains([{ name: "localhost" }])).toThrow('domain "localhost" must have at least two labels');
    expect(() => checkDomains([{ name: "a.com", owner: "x" }])).toThrow(IamError);
  });

  it("derives a URL-safe alias from the name", () => {
    expect(aliasFromName("Acme Inc.")).toBe("Acme-Inc.");
    expect(aliasFromName("  --Ünïcode Co ")).toBe("n-code-Co");
    expect(() => aliasFromName("!!!")).toThrow("alias is required when the name has no letters or digits");
  });

  it("reads the domain of an email and the dynamic organization scope", () => {
    expect(emailDomain("Ann@ACME.test")).toBe("acme.test");
    expect(emailDomain("ann")).toBe("");
    expect([baseScopeName("organization:acme"), requestedOrganization("organization:acme")]).toEqual(["organization", "acme"]);
    expect([baseScopeName("organization:*"), requestedOrganization("organization:*")]).toEqual(["organization", "*"]);
    expect([baseScopeName("organization:"), requestedOrganization("organization:")]).toEqual(["organization:", undefined]);
    expect(baseScopeName("profile")).toBe("profile");
  });
});
