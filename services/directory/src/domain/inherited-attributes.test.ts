import type { GroupRecord } from "./group.js";
import { inheritedGroupAttributes, resolveAttribute, type AttributeHolder } from "./inherited-attributes.js";

const group = (id: string, path: string, parentId: string, attributes?: Record<string, string[]>): GroupRecord => ({
  _id: id, realmId: "r", name: path.slice(path.lastIndexOf("/") + 1), description: "", parentId, path,
  ...(attributes ? { attributes } : {}), createdAt: 0, updatedAt: 0,
});

describe("inheritedGroupAttributes (a group's attributes with its ancestors')", () => {
  const org = group("g-org", "/org", "", { region: ["eu"], tier: ["base"], empty: [] });
  const eng = group("g-eng", "/org/eng", "g-org", { tier: ["gold"], empty: [] });
  const ops = group("g-ops", "/ops", "", { tier: ["ops"] });
  const legacy = group("g-old", "/legacy", ""); // written before groups had attributes

  it("merges each own group with its ancestors, nearest first, in path order; an empty list inherits", () => {
    expect(inheritedGroupAttributes([
      { group: ops, direct: true }, { group: eng, direct: true }, { group: org, direct: false }, { group: legacy, direct: true },
    ])).toEqual([
      {}, // "/legacy"
      { tier: ["ops"] }, // "/ops" sorts before "/org/eng"
      { region: ["eu"], tier: ["gold"] },
    ]);
  });

  it("lists a group the user holds directly and through a subgroup once, as its own", () => {
    expect(inheritedGroupAttributes([{ group: eng, direct: true }, { group: org, direct: true }])).toEqual([
      { region: ["eu"], tier: ["base"] },
      { region: ["eu"], tier: ["gold"] },
    ]);
  });
});

describe("resolveAttribute (Keycloak's KeycloakModelUtils.resolveAttribute)", () => {
  const subject: AttributeHolder = { attributes: { dept: ["r&d"], none: [] }, groupAttributes: [{ dept: ["ops"], site: ["lisbon"] }, { site: ["porto", "lisbon"] }] };

  it("reads the user's own values first, else the first group's that has the attribute", () => {
    expect(resolveAttribute(subject, "dept", false)).toEqual(["r&d"]);
    expect(resolveAttribute(subject, "site", false)).toEqual(["lisbon"]);
    expect(resolveAttribute(subject, "none", false)).toEqual([]);
    expect(resolveAttribute(subject, "missing", false)).toEqual([]);
    expect(resolveAttribute({ attributes: { dept: ["x"] } }, "site", false)).toEqual([]);
  });

  it("joins the user's and every group's values once each when aggregating", () => {
    expect(resolveAttribute(subject, "dept", true)).toEqual(["r&d", "ops"]);
    expect(resolveAttribute(subject, "site", true)).toEqual(["lisbon", "porto"]);
    expect(resolveAttribute(subject, "missing", true)).toEqual([]);
  });
});
