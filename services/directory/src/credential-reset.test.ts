import { Code, ConnectError, createClient, type Client } from "@connectrpc/connect";
import { CredentialResetService, ResetAccountOutcome, ResetKeyOutcome } from "../../../gen/iam/directory/v1/credential_reset_pb.js";
import { SecretBox, generateMasterKey } from "../../kit/src/crypto/secret-box.js";
import { startAuthnHarness, type AuthnHarness } from "./authentication-test-kit.js";
import { resetLink, RESET_LINK_TTL_MS } from "./domain/reset-link.js";

// Forgot password, the directory's half (CredentialResetService): who a form names, and a reset
// key that works once, for its realm and user, until it expires or the password changes.
describe("CredentialResetService", () => {
  const secrets = new SecretBox(generateMasterKey());
  let h: AuthnHarness;
  let reset: Client<typeof CredentialResetService>;

  beforeAll(async () => {
    // The harness's master key: keys are sealed here as the mailed link's are (no SMTP needed).
    h = await startAuthnHarness({ secrets });
    reset = createClient(CredentialResetService, h.transport);
  });
  afterAll(async () => h?.stop());

  /** A key as the mailed link carries it, sealed for the user's current password. */
  async function keyFor(realm: string, userId: string, at = h.clock.now()): Promise<string> {
    const r = (await h.realms.getRealm({ name: realm })).realm!;
    const c = await passwordCreatedAt(realm, userId);
    return new URL(resetLink(secrets, "https://id.example.com", { _id: r.id, name: r.name }, userId, c, at)).searchParams.get("key")!;
  }

  async function passwordCreatedAt(realm: string, userId: string): Promise<number> {
    const found = await h.store.collection<{ _id: string; realmId: string; userId: string; createdAt: number }>({ name: "credentials", indexes: [{ fields: ["realmId", "userId"] }] });
    const r = (await h.realms.getRealm({ name: realm })).realm!;
    return (await found.findOne({ realmId: r.id, userId }))?.createdAt ?? 0;
  }

  it("finds the account by username or email, and tells disabled, mail-less and unknown ones apart", async () => {
    const realm = await h.realm({ resetPasswordAllowed: true });
    const id = await h.user(realm, "nora", "Nora-Pass-1", { email: "Nora@Example.com" });
    const off = await h.user(realm, "otto", "Otto-Pass-1", { email: "otto@example.com", enabled: false });
    const mute = await h.user(realm, "mute", "Mute-Pass-1");
    expect(await reset.findResetAccount({ realm, identifier: "NORA" })).toMatchObject({ outcome: ResetAccountOutcome.FOUND, userId: id, username: "nora" });
    expect(await reset.findResetAccount({ realm, identifier: " nora@example.COM " })).toMatchObject({ outcome: ResetAccountOutcome.FOUND, userId: id });
    expect(await reset.findResetAccount({ realm, identifier: "otto" })).toMatchObject({ outcome: ResetAccountOutcome.DISABLED, userId: off });
    expect(await reset.findResetAccount({ realm, identifier: "mute" })).toMatchObject({ outcome: ResetAccountOutcome.NO_EMAIL, userId: mute });
    expect(await reset.findResetAccount({ realm, identifier: "nobody@example.com" })).toMatchObject({ outcome: ResetAccountOutcome.NOT_FOUND, userId: "" });
    expect(await reset.findResetAccount({ realm, identifier: "" })).toMatchObject({ outcome: ResetAccountOutcome.NOT_FOUND });
  });

  it("refuses every call in a realm that does not allow resets (FailedPrecondition)", async () => {
    const realm = await h.realm({});
    await expect(reset.findResetAccount({ realm, identifier: "x" })).rejects.toMatchObject({ code: Code.FailedPrecondition });
    await expect(reset.checkResetKey({ realm, key: "x" })).rejects.toMatchObject({ code: Code.FailedPrecondition });
  });

  it("sets the password once: of two concurrent uses of one key, exactly one wins", async () => {
    const realm = await h.realm({ resetPasswordAllowed: true });
    const id = await h.user(realm, "pia", "Pia-Pass-1", { email: "pia@example.com" });
    const key = await keyFor(realm, id);
    expect(await reset.checkResetKey({ realm, key })).toMatchObject({ outcome: ResetKeyOutcome.VALID, userId: id, username: "pia" });
    const results = await Promise.all([
      reset.resetPasswordWithKey({ realm, key, password: "Pia-Pass-2" }),
      reset.resetPasswordWithKey({ realm, key, password: "Pia-Pass-3" }),
    ]);
    expect(results.map((r) => r.outcome).sort()).toEqual([ResetKeyOutcome.VALID, ResetKeyOutcome.ALREADY_USED]);
    const winner = results[0]!.outcome === ResetKeyOutcome.VALID ? "Pia-Pass-2" : "Pia-Pass-3";
    expect((await h.login(realm, "pia", winner)).userId).toBe(id);
    expect(await reset.checkResetKey({ realm, key })).toMatchObject({ outcome: ResetKeyOutcome.ALREADY_USED, userId: id });
  });

  it("leaves the key usable when the policy or history refuses the password", async () => {
    const realm = await h.realm({ resetPasswordAllowed: true, passwordHistoryCount: 1, passwordRequireDigits: true });
    const id = await h.user(realm, "quin", "Quin-Pass-1", { email: "quin@example.com" });
    const key = await keyFor(realm, id);
    for (const [password, message] of [["no-digits-here", /digit/], ["Quin-Pass-1", /last 1 passwords/]] as const) {
      const e = await reset.resetPasswordWithKey({ realm, key, password }).catch((x: unknown) => ConnectError.from(x));
      expect(e).toBeInstanceOf(ConnectError);
      expect((e as ConnectError).code).toBe(Code.InvalidArgument);
      expect((e as ConnectError).rawMessage).toMatch(message);
    }
    expect((await reset.resetPasswordWithKey({ realm, key, password: "Quin-Pass-2" })).outcome).toBe(ResetKeyOutcome.VALID);
  });

  it("refuses a key that expired, is another realm's, whose user was disabled, or whose password changed since", async () => {
    const realm = await h.realm({ resetPasswordAllowed: true });
    const other = await h.realm({ resetPasswordAllowed: true });
    const id = await h.user(realm, "rae", "Rae-Pass-1", { email: "rae@example.com" });
    const expired = await keyFor(realm, id, h.clock.now() - RESET_LINK_TTL_MS - 1);
    expect((await reset.checkResetKey({ realm, key: expired })).outcome).toBe(ResetKeyOutcome.INVALID);
    const fresh = await keyFor(realm, id);
    expect((await reset.checkResetKey({ realm: other, key: fresh })).outcome).toBe(ResetKeyOutcome.INVALID);
    expect((await reset.checkResetKey({ realm, key: `${fresh.slice(0, -2)}AA` })).outcome).toBe(ResetKeyOutcome.INVALID);
    h.clock.advance(1);
    await h.users.resetPassword({ realm, userId: id, password: "Rae-Pass-2" });
    expect((await reset.resetPasswordWithKey({ realm, key: fresh, password: "Rae-Pass-3" })).outcome).toBe(ResetKeyOutcome.INVALID);
    const again = await keyFor(realm, id);
    await h.users.updateUser({ realm, userId: id, update: { enabled: false } });
    expect((await reset.checkResetKey({ realm, key: again })).outcome).toBe(ResetKeyOutcome.INVALID);
  });
});
