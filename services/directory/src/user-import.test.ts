import { pbkdf2Sync, randomBytes } from "node:crypto";
import argon2 from "argon2";
import bcrypt from "bcryptjs";
import type { JsonObject } from "@bufbuild/protobuf";
import { AuthOutcome, failureOf, startAuthnHarness, type AuthnHarness } from "./authentication-test-kit.js";

// User import with password hashes in their own formats (DESIGN 5): each imported user logs in
// through AuthenticatePassword, and the stored hash is argon2id afterwards.
describe("user import, in-process", () => {
  let h: AuthnHarness;
  beforeAll(async () => { h = await startAuthnHarness(); });
  afterAll(async () => h?.stop());

  const pw = "migrated-secret-1";

  async function storedHash(realm: string, userId: string): Promise<string> {
    const realmId = (await h.realms.getRealm({ name: realm })).realm!.id;
    const c = await h.store.collection<{ _id: string; hash?: string; realmId?: string } & Record<string, unknown>>({ name: "credentials" });
    return (await c.findOne({ _id: `${userId}:password`, realmId }))!.hash as string;
  }

  async function keycloakArgon2(): Promise<JsonObject> {
    const salt = randomBytes(16);
    const raw = await argon2.hash(pw, { type: argon2.argon2id, raw: true, salt, memoryCost: 7168, timeCost: 5, parallelism: 1, hashLength: 32 });
    return {
      type: "password",
      secretData: JSON.stringify({ value: raw.toString("base64"), salt: salt.toString("base64"), additionalParameters: {} }),
      credentialData: JSON.stringify({
        hashIterations: 5, algorithm: "argon2",
        additionalParameters: { hashLength: ["32"], memory: ["7168"], type: ["id"], version: ["1.3"], parallelism: ["1"] },
      }),
    };
  }

  function keycloakPbkdf2(algorithm: string, digest: string, legacy: boolean): JsonObject {
    const salt = randomBytes(16);
    const key = pbkdf2Sync(pw, salt, 27_500, 64, digest).toString("base64");
    return legacy
      ? { type: "password", hashedSaltedValue: key, salt: salt.toString("base64"), hashIterations: 27_500, algorithm }
      : {
        type: "password",
        secretData: JSON.stringify({ value: key, salt: salt.toString("base64") }),
        credentialData: JSON.stringify({ hashIterations: 27_500, algorithm }),
      };
  }

  it("imports every supported hash format; each user logs in and is re-hashed to argon2id", async () => {
    const r = await h.realm();
    const users: JsonObject[] = [
      { username: "bcrypt-user", credentials: [{ type: "password", hashedSaltedValue: await bcrypt.hash(pw, 4), algorithm: "bcrypt" }] },
      { username: "pbkdf2-256", credentials: [keycloakPbkdf2("pbkdf2-sha256", "sha256", true)] },
      { username: "pbkdf2-512", credentials: [keycloakPbkdf2("pbkdf2-sha512", "sha512", false)] },
      { username: "pbkdf2-sha1", credentials: [keycloakPbkdf2("pbkdf2", "sha1", true)] },
      { username: "argon2-keycloak", credentials: [await keycloakArgon2()] },
      { username: "argon2-phc", passwordHash: await argon2.hash(pw, { type: argon2.argon2i, memoryCost: 4096, timeCost: 2 }) },
      { username: "bcrypt-phc", passwordHash: (await bcrypt.hash(pw, 4)).replace(/^\$2b\$/, "$2y$") },
      { username: "plain", password: pw, email: "plain@example.test", emailVerified: true, firstName: "P" },
    ];
    const res = await h.security.importUsers({ realm: r, users });
    expect(res).toMatchObject({ imported: 8, skipped: 0, failed: 0, errors: [] });
    for (const u of users) {
      const name = u.username as string;
      expect({ name, outcome: (await h.login(r, name, "not-the-password")).outcome }).toEqual({ name, outcome: AuthOutcome.INVALID_CREDENTIALS });
      const ok = await h.login(r, name, pw);
      expect({ name, outcome: ok.outcome }).toEqual({ name, outcome: AuthOutcome.OK });
      const after = await storedHash(r, ok.userId);
      expect({ name, argon2id: after.startsWith("$argon2id$") }).toEqual({ name, argon2id: true });
      expect((await h.login(r, name, pw)).outcome).toBe(AuthOutcome.OK);
    }
    const plain = (await h.users.listUsers({ realm: r, username: "plain" })).users[0]!;
    expect(plain).toMatchObject({ email: "plain@example.test", emailVerified: true, firstName: "P", enabled: true, requirePasswordReset: false });
  });

  it("keeps the imported format until a successful login", async () => {
    const r = await h.realm();
    const bc = await bcrypt.hash(pw, 4);
    await h.security.importUsers({ realm: r, users: [{ username: "kept", passwordHash: bc }] });
    const failed = await h.login(r, "kept", "wrong-one-here");
    expect(await storedHash(r, failed.userId)).toBe(bc);
  });

  it("remembers an imported hash in the password history: neither reset nor change may reuse it", async () => {
    const r = await h.realm({ passwordHistoryCount: 3 });
    await h.security.importUsers({ realm: r, users: [{ username: "hist", passwordHash: await bcrypt.hash(pw, 4) }] });
    const id = (await h.users.listUsers({ realm: r, username: "hist" })).users[0]!.id;
    const reused = /must not be one of the last 3 passwords/;
    await expect(h.users.resetPassword({ realm: r, userId: id, password: pw })).rejects.toThrow(reused);
    await expect(h.authn.changePassword({ realm: r, userId: id, newPassword: pw })).rejects.toThrow(reused);
    await h.users.resetPassword({ realm: r, userId: id, password: "a-new-secret-22" });
    // The imported hash is still among the last three, in bcrypt format.
    await expect(h.users.resetPassword({ realm: r, userId: id, password: pw })).rejects.toThrow(reused);
    expect((await h.login(r, "hist", "a-new-secret-22")).outcome).toBe(AuthOutcome.OK);
  });

  it("reports per-user results: conflicts skipped, invalid users and unsupported hashes failed", async () => {
    const r = await h.realm();
    await h.user(r, "taken");
    const res = await h.security.importUsers({
      realm: r,
      users: [
        { username: "ok-1", password: pw, requirePasswordReset: true, enabled: false },
        { username: "TAKEN", password: pw },
        { username: "x" },
        { username: "md5", credentials: [{ type: "password", hashedSaltedValue: "abc", algorithm: "md5" }] },
        { username: "bad-phc", passwordHash: "$1$salt$hash" },
        { username: "short", password: "1234567" },
        { username: "both", password: pw, passwordHash: await bcrypt.hash(pw, 4) },
        { username: "ok-1", email: "x@example.test" },
        { username: "ok-2", requiredActions: ["UPDATE_PASSWORD"], attributes: { dept: ["eng"] } },
        // Costs no login should pay: bcrypt 2^31 rounds, argon2 with 4 TiB of memory.
        { username: "bcrypt-31", passwordHash: (await bcrypt.hash(pw, 4)).replace(/^\$2b\$04\$/, "$2b$31$") },
        { username: "argon-huge", credentials: [{ type: "password", algorithm: "argon2", hashedSaltedValue: "$argon2id$v=19$m=4294967295,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2g" }] },
      ],
    });
    expect(res).toMatchObject({
      imported: 2, skipped: 2, failed: 7,
      errors: [
        { index: 1, username: "TAKEN", error: "conflict" },
        { index: 2, username: "x", error: "invalid_request" },
        { index: 3, username: "md5", error: "unsupported_hash" },
        { index: 4, username: "bad-phc", error: "unsupported_hash" },
        { index: 5, username: "short", error: "invalid_password" },
        { index: 6, username: "both", error: "invalid_request" },
        { index: 7, username: "ok-1", error: "conflict" },
        { index: 9, username: "bcrypt-31", error: "unsupported_hash" },
        { index: 10, username: "argon-huge", error: "unsupported_hash" },
      ],
    });
    const ok1 = (await h.users.listUsers({ realm: r, username: "ok-1" })).users[0]!;
    expect(ok1).toMatchObject({ enabled: false, requirePasswordReset: true });
    expect((await h.users.listUsers({ realm: r, username: "ok-2" })).users[0]!.requirePasswordReset).toBe(true);
  });

  it("refuses more than 10,000 users and an unknown realm", async () => {
    const r = await h.realm();
    const users = Array.from({ length: 10_001 }, (_, i) => ({ username: `u${i}` }));
    expect(await failureOf(h.security.importUsers({ realm: r, users }))).toMatchObject({ reason: "too_many_users" });
    expect(await failureOf(h.security.importUsers({ realm: "no-such", users: [] }))).toMatchObject({ reason: "realm_not_found" });
  });
});
