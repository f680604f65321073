import { randomUUID } from "node:crypto";
import { randomToken, sha256Hex } from "../../kit/src/crypto/random.js";
import { Code, type Client } from "@connectrpc/connect";
import { fromBinary } from "@bufbuild/protobuf";
import { decodeJwt, jwtVerify } from "jose";
import type { UserService } from "../../../gen/iam/directory/v1/user_pb.js";
import type { OAuthService } from "../../../gen/iam/token/v1/oauth_pb.js";
import type { SessionAdminService } from "../../../gen/iam/token/v1/sessions_pb.js";
import { AdminEventSchema, type AdminEvent } from "../../../gen/iam/audit/v1/audit_pb.js";
import { adminEventSubject } from "../../kit/src/events/admin-events.js";
import { createLogger } from "../../kit/src/logger.js";
import { TestClock } from "../../kit/src/store/store-contract-kit.js";
import type { KeyRing } from "./domain/key-ring.js";
import { BACKCHANNEL_LOGOUT_EVENT, BackchannelLogout } from "./domain/backchannel-logout.js";
import { FLOWS_REALM, OAuthFlowsWorld, expectOAuthError, worldCalls } from "./oauth-flows-test-kit.js";

// Logout with a refresh token and back-channel delivery (OIDC Back-Channel Logout 1.0), sessions
// admin, and the directory's user events ending sessions, in-process (oauth-flows-test-kit.ts).
describe("OAuth logout and sessions, in-process", () => {
  const clock = new TestClock();
  const realmName = FLOWS_REALM;
  let w: OAuthFlowsWorld;
  let realmId: string;
  let userId: string;
  let keys: KeyRing;
  let oauth: Client<typeof OAuthService>;
  beforeAll(async () => {
    // Admin events on: the sessions admin's revocations stage theirs (an admin's revoke-all cut short).
    w = await OAuthFlowsWorld.build(clock, { adminEventsEnabled: true });
    ({ realmId, userId, keys, oauth } = w);
  }, 60_000);
  afterAll(() => w.close());

  const { parts, webClient, token, exchange, jwks, introspect, newCode } = worldCalls(() => w);
  const logger = createLogger("test", "silent");
  let sessionsAdmin: Client<typeof SessionAdminService>;
  let users: Client<typeof UserService>;
  beforeAll(() => {
    ({ sessionsAdmin, users } = w);
  });

  async function logoutWhileReceiverFails() {
    w.received.length = 0;
    w.backchannelStatus = 503;
    const { code, session } = await newCode();
    const res = await exchange(code);
    await oauth.logout({ realm: realmName, baseUrl: "http://localhost:8080", client: webClient(), refreshToken: res.refreshToken });
    return { session, res };
  }

  it("logs out with a refresh token: session ended, tokens inactive, signed back-channel logout delivered with retries", async () => {
    const { session, res } = await logoutWhileReceiverFails();
    expect(await parts().ssoRepo.findById(realmId, session)).toBeNull();
    expect(await introspect(res.accessToken)).toEqual({ active: false });
    await expectOAuthError(token({ client: webClient(), grantType: "refresh_token", refreshToken: res.refreshToken }), "invalid_grant");
    const until = Date.now() + 5000;
    while (w.received.filter((t) => decodeJwt(t).sid === session).length < 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    w.backchannelStatus = 200;
    await parts().backchannel.idle();
    const mine = w.received.filter((t) => decodeJwt(t).sid === session);
    expect(mine.length).toBeGreaterThanOrEqual(2);
    const { payload, protectedHeader } = await jwtVerify(mine[0]!, await jwks(), { issuer: `http://localhost:8080/realms/${realmName}`, audience: "web" });
    expect(protectedHeader.typ).toBe("logout+jwt");
    expect(payload).toMatchObject({ sub: userId, sid: session, events: { [BACKCHANNEL_LOGOUT_EVENT]: {} } });
    expect(payload.nonce).toBeUndefined();
    expect(typeof payload.jti).toBe("string");
  });

  it("tells the client of a logout whose session does not name it (a device's login), once", async () => {
    w.received.length = 0;
    w.backchannelStatus = 200;
    const session = randomUUID();
    const now = clock.now();
    await parts().ssoRepo.insert({
      _id: session, realmId, realmName, userId, username: "alice", cookieHash: sha256Hex(randomToken()), authTime: now - 1000,
      amr: ["pwd"], clientIds: [], ipAddress: "127.0.0.1", createdAt: now, lastSeenAt: now, expiresAt: now + 1_800_000,
    });
    const res = await exchange((await newCode({ session })).code);
    await oauth.logout({ realm: realmName, baseUrl: "http://localhost:8080", client: webClient(), refreshToken: res.refreshToken });
    expect(await parts().ssoRepo.findById(realmId, session)).toBeNull();
    await expectOAuthError(token({ client: webClient(), grantType: "refresh_token", refreshToken: res.refreshToken }), "invalid_grant");
    // The session's end reaches its consumer after the call answered: wait for the telling, then a
    // while longer for a second one (the consumer, had it found the family).
    const until = Date.now() + 5000;
    while (!w.received.some((t) => decodeJwt(t).sid === session) && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 300));
    await parts().backchannel.idle();
    expect(w.received.map((t) => decodeJwt(t)).filter((p) => p.sid === session).map((p) => [p.aud, p.sub])).toEqual([["web", userId]]);
  });

  it("keeps a back-channel logout that a stopped process left undone, and the next start delivers it", async () => {
    const { session } = await logoutWhileReceiverFails();
    const until = Date.now() + 5000;
    while (!w.received.some((t) => decodeJwt(t).sid === session) && Date.now() < until) await new Promise((r) => setTimeout(r, 5));
    // The process stops (a crash would leave the same record) between the failed first attempt and its retry.
    await parts().backchannel.stop();
    const left = await parts().deliveries.due(Number.MAX_SAFE_INTEGER, 10);
    expect(left.map((d) => ({ clientId: d.clientId, sid: d.sid, userId: d.userId }))).toEqual([{ clientId: "web", sid: session, userId }]);
    expect(left[0]!.attempts).toBe(1);
    const before = w.received.length;
    w.backchannelStatus = 200;
    clock.advance(60_000);
    const next = new BackchannelLogout(keys, parts().clients, parts().issuers, parts().deliveries, clock, logger, { backoffMs: 20, attempts: 3 });
    next.start();
    const deadline = Date.now() + 5000;
    while (w.received.length === before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    await next.stop();
    const delivered = w.received.slice(before);
    expect(delivered).toHaveLength(1);
    const { payload } = await jwtVerify(delivered[0]!, await jwks(), { issuer: `http://localhost:8080/realms/${realmName}`, audience: "web", currentDate: new Date(clock.now()) });
    expect(payload).toMatchObject({ sub: userId, sid: session, events: { [BACKCHANNEL_LOGOUT_EVENT]: {} } });
    expect(await parts().deliveries.due(Number.MAX_SAFE_INTEGER, 10)).toEqual([]);
    parts().backchannel.start();
  });

  it("tells the client of an OAuth session revoked just before a crash: the relay, past the lease, sends the back-channel logout", async () => {
    const { code, session } = await newCode();
    const familyId = (await exchange(code)).refreshToken.split(".")[0]!;
    const backchannel = parts().backchannel;
    const notify = backchannel.notify.bind(backchannel);
    // The revocation dies after the family went, before its client was told.
    backchannel.notify = () => new Promise<void>(() => undefined);
    try {
      void sessionsAdmin.revokeSession({ realm: realmName, sessionId: familyId, type: "oauth" }).catch(() => undefined);
      const until = Date.now() + 5000;
      while ((await parts().familyRepo.get(realmId, familyId)) && Date.now() < until) await new Promise((r) => setTimeout(r, 5));
      expect(await parts().familyRepo.get(realmId, familyId)).toBeNull();
    } finally {
      backchannel.notify = notify;
    }
    w.received.length = 0;
    w.backchannelStatus = 200;
    expect(await parts().outbox.relay()).toBe(0); // the revocation in progress still owns its entry
    clock.advance(30_000);
    expect(await parts().outbox.relay()).toBe(1);
    await backchannel.idle();
    // At least once (a retried logout token is a new token for the same sid, which the RP handles
    // idempotently): the delivery loop started by the test before may also send the durable
    // delivery the clock made due.
    expect(w.received.length).toBeGreaterThanOrEqual(1);
    for (const token of w.received) {
      const { payload } = await jwtVerify(token, await jwks(), { issuer: `http://localhost:8080/realms/${realmName}`, audience: "web", currentDate: new Date(clock.now()) });
      expect(payload).toMatchObject({ sub: userId, sid: session, events: { [BACKCHANNEL_LOGOUT_EVENT]: {} } });
    }
  });

  it("sessions admin lists and revokes oauth and sso sessions; revoke-all counts", async () => {
    const a = await exchange((await newCode()).code);
    const { session } = await newCode();
    const listed = await sessionsAdmin.listUserSessions({ realm: realmName, userId });
    const familyId = a.refreshToken.split(".")[0]!;
    expect(listed.sessions.find((s) => s.id === familyId)).toMatchObject({ type: "oauth", clients: ["web"], username: "alice" });
    expect(listed.sessions.find((s) => s.id === session)).toMatchObject({ type: "sso" });
    expect(await sessionsAdmin.revokeSession({ realm: realmName, sessionId: familyId, type: "oauth" })).toMatchObject({ revoked: true, sessionId: familyId, type: "oauth" });
    expect(await introspect(a.accessToken)).toEqual({ active: false });
    expect(await sessionsAdmin.revokeSession({ realm: realmName, sessionId: session, type: "sso" })).toMatchObject({ revoked: true, type: "sso" });
    await exchange((await newCode()).code);
    const { count } = await sessionsAdmin.revokeUserSessions({ realm: realmName, userId });
    expect(count).toBeGreaterThanOrEqual(2);
    expect((await sessionsAdmin.listUserSessions({ realm: realmName, userId })).sessions).toEqual([]);
  });

  it("sessions admin pages a user's sessions with first/max (SSO, then OAuth, oldest first); revoke-all counts what was listed", async () => {
    await sessionsAdmin.revokeUserSessions({ realm: realmName, userId });
    const one = await newCode();
    clock.advance(1000);
    const a = await exchange(one.code);
    clock.advance(1000);
    const two = await newCode();
    clock.advance(1000);
    const b = await exchange((await newCode({ session: two.session })).code);
    const [fa, fb] = [a.refreshToken.split(".")[0]!, b.refreshToken.split(".")[0]!];
    const page = async (first: number, max: number) =>
      (await sessionsAdmin.listUserSessions({ realm: realmName, userId, first, max })).sessions.map((s) => `${s.type}:${s.id}`);
    const all = [`sso:${one.session}`, `sso:${two.session}`, `oauth:${fa}`, `oauth:${fb}`];
    expect(await page(0, 0)).toEqual(all); // 0: the default page size (100)
    expect(await page(0, 1)).toEqual(all.slice(0, 1));
    expect(await page(1, 2)).toEqual(all.slice(1, 3)); // across the SSO/OAuth seam
    expect(await page(2, 1)).toEqual(all.slice(2, 3)); // past the SSO sessions: they are counted
    expect(await page(3, 5)).toEqual(all.slice(3));
    expect(await page(4, 5)).toEqual([]);
    await expect(sessionsAdmin.listUserSessions({ realm: realmName, userId, first: -1 })).rejects.toMatchObject({ code: Code.InvalidArgument });
    // The realm listing pages the same way: pages of 2 put together are the whole list.
    const realmAll = (await sessionsAdmin.listRealmSessions({ realm: realmName })).sessions.map((s) => s.id);
    const pieced: string[] = [];
    for (let first = 0; first < realmAll.length + 2; first += 2) {
      pieced.push(...(await sessionsAdmin.listRealmSessions({ realm: realmName, first, max: 2 })).sessions.map((s) => s.id));
    }
    expect(pieced).toEqual(realmAll);
    expect(realmAll).toEqual(expect.arrayContaining(all.map((x) => x.split(":")[1])));
    // Spec 4.7: the count of revoked sessions, the four listed, whichever ended an online family first.
    expect((await sessionsAdmin.revokeUserSessions({ realm: realmName, userId })).count).toBe(4);
    expect(await page(0, 0)).toEqual([]);
  });

  describe("an admin's revoke-all cut short by a crash", () => {
    let adminEvents: AdminEvent[];
    let watching: { stop(): Promise<void> };
    beforeAll(async () => {
      adminEvents = [];
      watching = await w.bus.watch({ subject: adminEventSubject("token"), onGap: () => undefined }, (m) => { adminEvents.push(fromBinary(AdminEventSchema, m.payload)); });
    });
    afterAll(() => watching.stop());

    /** Two SSO sessions with an OAuth session each (4 listed); the `nth` session removal (1-based) of the revoke-all never returns. */
    async function revokeAllDyingAt(nth: number) {
      await sessionsAdmin.revokeUserSessions({ realm: realmName, userId });
      clock.advance(1000);
      const one = await newCode();
      const a = await exchange(one.code);
      clock.advance(1000); // listed oldest first: the first removal is `one`'s
      const two = await newCode();
      const b = await exchange(two.code);
      adminEvents.length = 0;
      const repo = parts().ssoRepo;
      const remove = repo.remove.bind(repo);
      let calls = 0;
      repo.remove = (realm, id) => (++calls === nth ? new Promise(() => undefined) : remove(realm, id));
      try {
        void sessionsAdmin.revokeUserSessions({ realm: realmName, userId }).catch(() => undefined);
        const until = Date.now() + 5000;
        while (calls < nth && Date.now() < until) await new Promise((r) => setTimeout(r, 5));
        expect(calls).toBe(nth);
      } finally {
        repo.remove = remove;
      }
      return { sessions: [one.session, two.session], tokens: [a, b] };
    }

    const settled = () => new Promise((r) => setTimeout(r, 50));

    it("after its first session ended: the relay, past the lease, ends the rest and records its one admin event with the listed count", async () => {
      const { sessions, tokens } = await revokeAllDyingAt(2);
      expect(await parts().ssoRepo.findById(realmId, sessions[0]!)).toBeNull();
      expect(await parts().ssoRepo.findById(realmId, sessions[1]!)).not.toBeNull();
      expect(await parts().outbox.relay()).toBe(0); // the call in progress still owns its entries
      await settled();
      expect(adminEvents).toEqual([]);
      clock.advance(30_000);
      // The revoke-all; and the second session's own end, staged by the call that died, which the
      // relay announces again if it looks after the revoke-all's finish ended the session, or drops
      // if before (both entries have the test clock's one createdAt, so either order).
      expect([1, 2]).toContain(await parts().outbox.relay());
      await settled();
      expect((await sessionsAdmin.listUserSessions({ realm: realmName, userId })).sessions).toEqual([]);
      for (const t of tokens) expect(await introspect(t.accessToken)).toEqual({ active: false });
      expect(adminEvents.map((e) => ({ op: e.operationType, type: e.resourceType, path: e.resourcePath, rep: JSON.parse(e.representation) }))).toEqual([
        { op: "DELETE", type: "USER_SESSION", path: `users/${userId}/sessions`, rep: { count: 4 } },
      ]);
      expect(await parts().outbox.relay()).toBe(0);
    });

    it("before anything ended: the relay drops it, records nothing, and the sessions stay for the admin's retry", async () => {
      const { sessions, tokens } = await revokeAllDyingAt(1);
      clock.advance(30_000);
      expect(await parts().outbox.relay()).toBe(0);
      await settled();
      expect(adminEvents).toEqual([]);
      for (const s of sessions) expect(await parts().ssoRepo.findById(realmId, s)).not.toBeNull();
      expect(await introspect(tokens[1]!.accessToken)).toMatchObject({ active: true });
      expect((await sessionsAdmin.revokeUserSessions({ realm: realmName, userId })).count).toBe(4);
      await settled();
      expect(adminEvents.map((e) => [e.resourcePath, JSON.parse(e.representation)])).toEqual([[`users/${userId}/sessions`, { count: 4 }]]);
    });
  });

  it("ends the user's sessions when the directory disables the user", async () => {
    const res = await exchange((await newCode()).code);
    await users.updateUser({ realm: realmName, userId, update: { enabled: false } });
    const until = Date.now() + 5000;
    while ((await introspect(res.accessToken)).active && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    expect(await introspect(res.accessToken)).toEqual({ active: false });
    await expectOAuthError(token({ client: webClient(), grantType: "refresh_token", refreshToken: res.refreshToken }), "invalid_grant");
    await users.updateUser({ realm: realmName, userId, update: { enabled: true } });
  });

  /** The token module's consumers stopped while `meanwhile` runs (a replica down, a backlog): they get its events late. */
  async function handledLate(meanwhile: () => Promise<void>): Promise<void> {
    await w.oauthModule.stop();
    try {
      await meanwhile();
    } finally {
      await w.oauthModule.start();
    }
  }

  /** Waits for the late consumer to be done with `at`: the user's not-before mark is its last write. */
  async function userMarkedAt(at: number): Promise<void> {
    const mark = async () => (await parts().revoked.tokens.get(`${realmId}:not-before:user:${userId}`))?.notBefore;
    const until = Date.now() + 5000;
    while ((await mark()) !== at && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
    expect(await mark()).toBe(at);
  }

  const listed = async () => ({
    sessions: (await sessionsAdmin.listUserSessions({ realm: realmName, userId })).sessions.map((s) => `${s.type}:${s.id}`),
    offline: (await sessionsAdmin.listOfflineSessions({ realm: realmName, userId })).sessions.map((s) => s.id),
  });
  const familyOf = (t: { refreshToken: string }) => t.refreshToken.split(".")[0]!;

  it("ends on a late password.changed only the sessions created up to the change: the login after it keeps its own", async () => {
    const old = await newCode();
    const oldOnline = await exchange(old.code);
    const oldOffline = await exchange((await newCode({ scope: "openid offline_access", session: old.session })).code);
    let changedAt = 0;
    let fresh = { session: "", online: oldOnline, offline: oldOffline };
    await handledLate(async () => {
      clock.advance(1000);
      changedAt = clock.now();
      await users.resetPassword({ realm: realmName, userId, password: "Changed-horse-10" });
      // The login that changed it (UPDATE_PASSWORD) starts its session after the change, before the event is handled.
      clock.advance(1000);
      const code = await newCode();
      const online = await exchange(code.code);
      fresh = { session: code.session, online, offline: await exchange((await newCode({ scope: "openid offline_access", session: code.session })).code) };
    });
    await userMarkedAt(changedAt);
    expect(await listed()).toEqual({ sessions: [`sso:${fresh.session}`, `oauth:${familyOf(fresh.online)}`], offline: [familyOf(fresh.offline)] });
    expect(await parts().ssoRepo.findById(realmId, old.session)).toBeNull();
    expect([await introspect(oldOnline.accessToken), await introspect(oldOffline.accessToken)]).toEqual([{ active: false }, { active: false }]);
    expect(await introspect(fresh.online.accessToken)).toMatchObject({ active: true, sid: fresh.session });
    await expectOAuthError(token({ client: webClient(), grantType: "refresh_token", refreshToken: oldOffline.refreshToken }), "invalid_grant");
    const refreshed = await token({ client: webClient(), grantType: "refresh_token", refreshToken: fresh.online.refreshToken });
    expect(decodeJwt(refreshed.accessToken)).toMatchObject({ sub: userId, sid: fresh.session });
  });

  it("ends on a late user.disabled only the sessions created up to it: a login after the user was enabled again keeps its own", async () => {
    const old = await newCode();
    const oldOnline = await exchange(old.code);
    let disabledAt = 0;
    let fresh = { session: "", online: oldOnline };
    await handledLate(async () => {
      clock.advance(1000);
      disabledAt = clock.now();
      await users.updateUser({ realm: realmName, userId, update: { enabled: false } });
      clock.advance(1000);
      await users.updateUser({ realm: realmName, userId, update: { enabled: true } });
      clock.advance(1000);
      const code = await newCode();
      fresh = { session: code.session, online: await exchange(code.code) };
    });
    await userMarkedAt(disabledAt);
    // The previous test's fresh sessions, offline included, were created before: they end too.
    expect(await listed()).toEqual({ sessions: [`sso:${fresh.session}`, `oauth:${familyOf(fresh.online)}`], offline: [] });
    expect(await introspect(oldOnline.accessToken)).toEqual({ active: false });
    expect(await introspect(fresh.online.accessToken)).toMatchObject({ active: true, sid: fresh.session });
  });

  it("refuses a disabled user's refresh, userinfo and introspection at once, before the user.disabled consumer has ended anything", async () => {
    const online = await exchange((await newCode()).code);
    let disabledAt = 0;
    await handledLate(async () => {
      clock.advance(1000);
      disabledAt = clock.now();
      await users.updateUser({ realm: realmName, userId, update: { enabled: false } });
      // The family still stands (its consumer has not run), but the user's claims are refused.
      expect(await parts().familyRepo.list({ realmId, userId })).not.toEqual([]);
      await expectOAuthError(token({ client: webClient(), grantType: "refresh_token", refreshToken: online.refreshToken }), "invalid_grant");
      await expectOAuthError(w.oauth.userInfo({ realm: realmName, baseUrl: "http://localhost:8080", accessToken: online.accessToken }), "invalid_token");
      expect(await introspect(online.accessToken)).toEqual({ active: false });
    });
    await userMarkedAt(disabledAt);
    await users.updateUser({ realm: realmName, userId, update: { enabled: true } });
  });

  it("ends on a late user.deleted every session of the user, even one stamped after the deletion", async () => {
    const bob = (await users.createUser({ realm: realmName, user: { username: "bob", password: "correct-horse-9" } })).user!.id;
    const sessionOfBob = async (id: string) => {
      const now = clock.now();
      await parts().ssoRepo.insert({
        _id: id, realmId, realmName, userId: bob, username: "bob", cookieHash: `bob-${id}`, authTime: now, amr: ["pwd"],
        clientIds: ["web"], ipAddress: "127.0.0.1", createdAt: now, lastSeenAt: now, expiresAt: now + 1_800_000,
      });
    };
    await sessionOfBob("bob-before");
    await handledLate(async () => {
      clock.advance(1000);
      await users.deleteUser({ realm: realmName, userId: bob });
      // A login that passed the password check before the deletion and stored its session after it.
      clock.advance(1000);
      await sessionOfBob("bob-racing");
    });
    const until = Date.now() + 5000;
    while ((await parts().ssoRepo.listByUser(realmId, bob)).length > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
    expect(await parts().ssoRepo.listByUser(realmId, bob)).toEqual([]);
  });
});
