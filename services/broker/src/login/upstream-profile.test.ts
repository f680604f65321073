import { profileFromClaims, profileFromGitHub } from "./upstream-profile.js";

describe("upstream profiles", () => {
  it("reads OIDC standard claims, splitting `name` when given_name and family_name are absent", () => {
    const c1 = { sub: "s1", preferred_username: "jdoe", email: "j@example.com", email_verified: true, given_name: "John", family_name: "Doe", dept: ["a"] };
    expect(profileFromClaims(c1))
      .toEqual({ subject: "s1", username: "jdoe", email: "j@example.com", emailVerified: true, firstName: "John", lastName: "Doe", claims: c1 });
    const c2 = { sub: "s2", name: "Ada King Lovelace", email_verified: "true", email: "a@example.com" };
    expect(profileFromClaims(c2))
      .toEqual({ subject: "s2", email: "a@example.com", emailVerified: true, firstName: "Ada", lastName: "King Lovelace", claims: c2 });
    const c3 = { sub: "s3", email: "x@example.com", email_verified: "yes", preferred_username: "" };
    expect(profileFromClaims(c3)).toEqual({ subject: "s3", email: "x@example.com", emailVerified: false, claims: c3 });
  });

  it("takes GitHub's verified primary email only", () => {
    const user = { id: 42, login: "octo", name: "Octo Cat", email: "public@example.com" };
    expect(profileFromGitHub(user, [
      { email: "a@example.com", primary: false, verified: true },
      { email: "b@example.com", primary: true, verified: true },
    ])).toEqual({ subject: "42", username: "octo", email: "b@example.com", emailVerified: true, firstName: "Octo", lastName: "Cat", claims: user });
    // An unverified primary is not an email the broker may use (the public profile email neither).
    expect(profileFromGitHub(user, [{ email: "b@example.com", primary: true, verified: false }]))
      .toEqual({ subject: "42", username: "octo", emailVerified: false, firstName: "Octo", lastName: "Cat", claims: user });
    expect(profileFromGitHub({ id: 7, login: "solo" }, { message: "Not an array" })).toEqual({ subject: "7", username: "solo", emailVerified: false, claims: { id: 7, login: "solo" } });
  });
});
