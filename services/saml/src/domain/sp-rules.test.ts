import { IamError } from "../../../kit/src/errors.js";
import {
  checkAttributeStatements, checkEndpointUrl, checkEntityId, checkNameIdFormat, checkRegisterInput, checkUpdateInput,
} from "./sp-rules.js";

function fieldOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (e) {
    if (e instanceof IamError && e.code === "invalidArgument") return e.field;
    throw e;
  }
  return undefined;
}

describe("SAML SP rules (spec 2.11)", () => {
  it.each([
    "https://sp.example.test/saml/acs",
    "https://sp.example.test:8443/acs?x=1",
    "http://localhost:3000/acs",
    "http://127.0.0.1/acs",
    "http://[::1]:8080/acs",
  ])("accepts the endpoint %s", (u) => {
    expect(checkEndpointUrl("acsUrl", u)).toBe(u);
  });

  it.each([
    ["relative/acs", "must be an absolute URL"],
    ["http://sp.example.test/acs", "must be an https URL (http only for localhost)"],
    ["javascript:alert(1)", "must be an https URL (http only for localhost)"],
    ["data:text/html,<script>1</script>", "must be an https URL (http only for localhost)"],
    ["ftp://sp.example.test/acs", "must be an https URL (http only for localhost)"],
    ["https://sp.example.test/acs#frag", "must not have a fragment"],
    ["https://sp.example.test/acs#", "must not have a fragment"],
    ["https://user:pw@sp.example.test/acs", "must not carry credentials"],
    ["", "must be at least 1 characters"],
  ])("refuses the endpoint %s", (u, message) => {
    expect(() => checkEndpointUrl("sloUrl", u)).toThrow(`sloUrl ${message}`);
    expect(fieldOf(() => checkEndpointUrl("sloUrl", u))).toBe("sloUrl");
  });

  it("accepts the four NameID formats and nothing else", () => {
    for (const f of [
      "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress",
      "urn:oasis:names:tc:SAML:2.0:nameid-format:persistent",
      "urn:oasis:names:tc:SAML:2.0:nameid-format:transient",
      "urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified",
    ]) expect(checkNameIdFormat(f)).toBe(f);
    expect(fieldOf(() => checkNameIdFormat("urn:oasis:names:tc:SAML:2.0:nameid-format:entity"))).toBe("nameIdFormat");
    expect(fieldOf(() => checkNameIdFormat("emailAddress"))).toBe("nameIdFormat");
  });

  it("accepts every documented attribute source", () => {
    const map = {
      uid: "username", mail: "email", givenName: "firstName", sn: "lastName", role: "roles", memberOf: "groups",
      "urn:oid:2.5.4.11": "attribute:department", dept: "attribute:org.unit-1",
    };
    expect(checkAttributeStatements(map)).toEqual(map);
    expect(checkAttributeStatements({})).toEqual({});
  });

  it.each([
    [{ "": "email" }, "attributeStatements"],
    [{ "   ": "email" }, "attributeStatements"],
    [{ ["a".repeat(256)]: "email" }, "attributeStatements"],
    [{ mail: "password" }, "attributeStatements.mail"],
    [{ mail: "Email" }, "attributeStatements.mail"],
    [{ mail: "attribute:" }, "attributeStatements.mail"],
    [{ mail: "attribute:has space" }, "attributeStatements.mail"],
    [{ mail: "" }, "attributeStatements.mail"],
  ])("refuses attributeStatements %j naming %s", (map, field) => {
    expect(fieldOf(() => checkAttributeStatements(map as Record<string, string>))).toBe(field);
  });

  it("accepts a key of exactly 255 characters, and at most 100 mappings", () => {
    expect(() => checkAttributeStatements({ ["k".repeat(255)]: "email" })).not.toThrow();
    const many = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`a${i}`, "email"]));
    expect(fieldOf(() => checkAttributeStatements(many))).toBe("attributeStatements");
  });

  it("requires entityId, name and acsUrl on register, in that order", () => {
    expect(fieldOf(() => checkRegisterInput({}))).toBe("entityId");
    expect(fieldOf(() => checkRegisterInput({ entityId: "urn:sp" }))).toBe("name");
    expect(fieldOf(() => checkRegisterInput({ entityId: "urn:sp", name: "SP" }))).toBe("acsUrl");
    expect(fieldOf(() => checkRegisterInput({ entityId: "urn:sp", name: "SP", acsUrl: "https://a.test/acs" }))).toBeUndefined();
    expect(fieldOf(() => checkRegisterInput({ entityId: "urn:sp", name: "", acsUrl: "https://a.test/acs" }))).toBe("name");
  });

  it("refuses entity ids that are empty, too long or hold whitespace", () => {
    expect(checkEntityId("https://sp.example.test/metadata")).toBe("https://sp.example.test/metadata");
    expect(fieldOf(() => checkEntityId(""))).toBe("entityId");
    expect(fieldOf(() => checkEntityId("urn:a b"))).toBe("entityId");
    expect(fieldOf(() => checkEntityId(" urn:a"))).toBe("entityId");
    expect(fieldOf(() => checkEntityId(`urn:${"x".repeat(1021)}`))).toBe("entityId");
    expect(checkEntityId(`urn:${"x".repeat(1020)}`)).toHaveLength(1024);
  });

  it("checks only the fields an update carries, and lets an empty sloUrl through (it removes)", () => {
    expect(fieldOf(() => checkUpdateInput({}))).toBeUndefined();
    expect(fieldOf(() => checkUpdateInput({ sloUrl: "" }))).toBeUndefined();
    expect(fieldOf(() => checkUpdateInput({ entityId: "" }))).toBe("entityId");
    expect(fieldOf(() => checkUpdateInput({ acsUrl: "http://sp.test/acs" }))).toBe("acsUrl");
    expect(fieldOf(() => checkUpdateInput({ nameIdFormat: "x" }))).toBe("nameIdFormat");
    expect(fieldOf(() => checkUpdateInput({ attributeStatements: { a: "b" } }))).toBe("attributeStatements.a");
  });
});
