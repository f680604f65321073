import { assertPublishSubject, subjectMatcher } from "./subject-match.js";

describe("subjectMatcher", () => {
  it.each([
    ["iam.directory.v1.user.deleted", "iam.directory.v1.user.deleted", true],
    ["iam.directory.v1.user.deleted", "iam.directory.v1.user.created", false],
    ["iam.*.v1.user.deleted", "iam.directory.v1.user.deleted", true],
    ["iam.*.v1.user.deleted", "iam.directory.v2.user.deleted", false],
    ["iam.*", "iam.directory.v1", false],
    ["iam.>", "iam.directory.v1.user.deleted", true],
    ["iam.>", "iam", false],
    ["iam.directory.>", "iam.directory", false],
    ["iam.*.>", "iam.a.b", true],
    ["iam.*.>", "iam.a", false],
    ["iam.a", "iam.a.b", false],
  ])("%s against %s is %s", (filter, subject, expected) => {
    expect(subjectMatcher(filter)(subject)).toBe(expected);
  });

  it("rejects malformed filters", () => {
    expect(() => subjectMatcher("iam.>.x")).toThrow("invalid subscription subject");
    expect(() => subjectMatcher("iam..x")).toThrow("invalid subscription subject");
    expect(() => subjectMatcher("")).toThrow("invalid subscription subject");
  });

  it("rejects wildcards and empty tokens in published subjects", () => {
    expect(() => assertPublishSubject("iam.*.x")).toThrow("invalid publish subject");
    expect(() => assertPublishSubject("iam.>")).toThrow("invalid publish subject");
    expect(() => assertPublishSubject("iam. x")).toThrow("invalid publish subject");
    expect(() => assertPublishSubject("iam.x.")).toThrow("invalid publish subject");
    expect(() => assertPublishSubject("iam.directory.v1.user.created")).not.toThrow();
  });
});
