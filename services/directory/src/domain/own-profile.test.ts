import { Code, ConnectError } from "@connectrpc/connect";
import { ErrorDetailSchema } from "../../../../gen/iam/kit/v1/kit_pb.js";
import { AuthOutcome, startAuthnHarness, type AuthnHarness } from "../authentication-test-kit.js";
import { usernameEditable } from "./own-profile.js";

/** The Connect code, ErrorDetail reason and field a call fails with (fails the test when it succeeds). */
async function refusal(call: Promise<unknown>): Promise<{ code: Code; reason: string; field: string }> {
  try {
    await call;
  } catch (e) {
    const ce = ConnectError.from(e);
    const detail = ce.findDetails(ErrorDetailSchema)[0];
    return { code: ce.code, reason: detail?.reason ?? "", field: detail?.field ?? "" };
  }
  throw new Error("expected the call to fail");
}

describe("usernameEditable", () => {
  it("follows editUsernameAllowed, false when the realm has none (Keycloak's default)", () => {
    expect(usernameEditable({})).toBe(false);
    expect(usernameEditable({ editUsernameAllowed: false })).toBe(false);
    expect(usernameEditable({ editUsernameAllowed: true })).toBe(true);
  });
});

// The account API's own-profile change (UserService.GetOwnProfile / UpdateOwnProfile) on the real
// directory: a rename only where the realm allows it, checked as the Admin API checks usernames.
describe("OwnProfile", () => {
  let h: AuthnHarness;
  beforeAll(async () => {
    h = await startAuthnHarness();
  });
  afterAll(async () => h?.stop());

  it("refuses a rename in a realm without editUsernameAllowed, and takes the other fields", async () => {
    const realm = await h.realm({});
    const userId = await h.user(realm, "alice", "correct-horse-1", { email: "alice@example.com" });
    expect(await h.users.getOwnProfile({ realm, userId })).toMatchObject({ user: { username: "alice" }, usernameEditable: false });
    expect(await refusal(h.users.updateOwnProfile({ realm, userId, username: "alice2", firstName: "Al" })))
      .toEqual({ code: Code.InvalidArgument, reason: "username_read_only", field: "username" });
    // A case change is a rename too; nothing of the refused body was written.
    expect((await refusal(h.users.updateOwnProfile({ realm, userId, username: "Alice" }))).reason).toBe("username_read_only");
    expect((await h.users.getUser({ realm, userId })).user).toMatchObject({ username: "alice", firstName: "" });
    // The current username sent back (a full form) is no rename.
    const same = await h.users.updateOwnProfile({ realm, userId, username: " alice ", firstName: "Al", email: "al@example.com" });
    expect(same).toMatchObject({ user: { username: "alice", firstName: "Al", email: "al@example.com" }, previousUsername: "alice", previousEmail: "alice@example.com" });
  });

  it("renames where the realm allows it: normalised as the Admin API does, and the new name logs in", async () => {
    const realm = await h.realm({ editUsernameAllowed: true });
    const userId = await h.user(realm, "carol");
    expect((await h.users.getOwnProfile({ realm, userId })).usernameEditable).toBe(true);
    // Fullwidth letters are stored in their NFKC form, trimmed (username.ts).
    const renamed = await h.users.updateOwnProfile({ realm, userId, username: " ｃａｒｏｌｉｎｅ " });
    expect([renamed.user?.username, renamed.previousUsername]).toEqual(["caroline", "carol"]);
    expect((await h.login(realm, "caroline", "correct-horse-1")).outcome).toBe(AuthOutcome.OK);
    expect((await h.login(realm, "carol", "correct-horse-1")).outcome).toBe(AuthOutcome.INVALID_CREDENTIALS);
  });

  it("refuses a taken username (409 naming username, whatever its case) and an invalid one (400 naming username)", async () => {
    const realm = await h.realm({ editUsernameAllowed: true });
    const userId = await h.user(realm, "dave");
    await h.user(realm, "erin");
    expect(await refusal(h.users.updateOwnProfile({ realm, userId, username: "ERIN" })))
      .toEqual({ code: Code.AlreadyExists, reason: "conflict", field: "username" });
    for (const bad of ["d", "a/b", "<script>", "pаypal"]) {
      expect(await refusal(h.users.updateOwnProfile({ realm, userId, username: bad })))
        .toEqual({ code: Code.InvalidArgument, reason: "invalid_request", field: "username" });
    }
    expect((await h.users.getUser({ realm, userId })).user?.username).toBe("dave");
  });

  it("obeys the setting as soon as an administrator turns it off", async () => {
    const realm = await h.realm({ editUsernameAllowed: true });
    const userId = await h.user(realm, "fred");
    expect((await h.users.updateOwnProfile({ realm, userId, username: "frederick" })).user?.username).toBe("frederick");
    await h.realms.updateRealm({ name: realm, update: { editUsernameAllowed: false } });
    expect((await h.users.getOwnProfile({ realm, userId })).usernameEditable).toBe(false);
    expect((await refusal(h.users.updateOwnProfile({ realm, userId, username: "fred" }))).reason).toBe("username_read_only");
  });
});
