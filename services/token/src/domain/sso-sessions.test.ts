import { fromBinary } from "@bufbuild/protobuf";
import { SsoSessionEndedSchema } from "../../../../gen/iam/token/v1/events_pb.js";
import { LoginEventSchema } from "../../../../gen/iam/audit/v1/audit_pb.js";
import { loginEventMessage, loginEventSubject } from "../../../kit/src/events/login-events.js";
import { MemoryBus } from "../../../kit/src/bus/memory-bus.js";
import type { Bus, BusMessage } from "../../../kit/src/bus/port.js";
import { Outbox, type EventStamp } from "../../../kit/src/bus/outbox.js";
import { recorder, sleep, waitUntil } from "../../../kit/src/bus/bus-test-kit.js";
import { createLogger } from "../../../kit/src/logger.js";
import { SqliteStore } from "../../../kit/src/store/sqlite-store.js";
import { TestClock } from "../../../kit/src/store/store-contract-kit.js";
import { SSO_SESSION_ENDED } from "../events/session-events.js";
import { SsoSessionRepository } from "../store/sso-session-repository.js";
import type { SsoSessionRecord } from "./sso-session.js";
import { SsoSessions } from "./sso-sessions.js";

/** SsoSessions.end on the real SQLite store and in-process bus: the announcement survives a crash. */
describe("SsoSessions", () => {
  const logger = createLogger("test", "silent");
  let clock: TestClock;
  let store: SqliteStore;
  let bus: MemoryBus;
  let repo: SsoSessionRepository;
  let delivered: ReturnType<typeof recorder>;

  const session = (id: string): SsoSessionRecord => ({
    _id: id, realmId: "r1", realmName: "acme", userId: "u1", username: "alice", cookieHash: `hash-${id}`, authTime: clock.now(), amr: ["pwd"],
    clientIds: ["web"], ipAddress: "127.0.0.1", createdAt: clock.now(), lastSeenAt: clock.now(), expiresAt: clock.now() + 1_800_000,
  });

  /** A process's SsoSessions over the shared store, publishing through `via`. */
  async function sessionsOver(via: Bus): Promise<{ sso: SsoSessions; outbox: Outbox }> {
    const outbox = await Outbox.open(store, via, clock, logger, { relayIntervalMs: 0 });
    return { sso: new SsoSessions(repo, outbox, clock), outbox };
  }

  const ended = () => delivered.got.map((m) => {
    const e = fromBinary(SsoSessionEndedSchema, m.payload);
    return { sessionId: e.sessionId, userId: e.userId, clientIds: e.clientIds, reason: e.reason };
  });

  beforeEach(async () => {
    clock = new TestClock();
    store = new SqliteStore({ path: ":memory:", sweepIntervalMs: 0, clock });
    bus = new MemoryBus({ path: ":memory:", logger, pruneIntervalMs: 0 });
    repo = await SsoSessionRepository.open(store);
    await repo.insert(session("s1"));
    delivered = recorder();
    await bus.subscribe({ durable: "test-sso-ended", subject: SSO_SESSION_ENDED }, delivered.handler);
  });
  afterEach(async () => {
    await bus.close();
    await store.close();
  });

  it("ends a session once, announcing it with the clients that joined it after it was read", async () => {
    const { sso } = await sessionsOver(bus);
    const read = await repo.findById("r1", "s1");
    await repo.touch("r1", "s1", "spa", clock.now(), clock.now() + 1_800_000);
    expect(await sso.end("r1", "s1", "admin", { known: read ?? undefined })).toMatchObject({ _id: "s1", clientIds: ["web", "spa"] });
    expect(await sso.end("r1", "s1", "admin")).toBeNull();
    expect(await sso.end("r2", "s1", "admin")).toBeNull();
    await waitUntil("the announcement", () => delivered.got.length === 1);
    expect(ended()).toEqual([{ sessionId: "s1", userId: "u1", clientIds: ["web", "spa"], reason: "admin" }]);
  });

  it("after a crash between the session's end and its announcement, the next process announces it with the LOGOUT event staged with it", async () => {
    const logins = recorder();
    await bus.subscribe({ durable: "test-login-events", subject: loginEventSubject("token") }, logins.handler);
    const hung = Object.create(bus) as Bus;
    hung.publish = () => new Promise<BusMessage>(() => undefined);
    const crashed = await sessionsOver(hung);
    const logout = (stamp: EventStamp) => [loginEventMessage("token", { realm: "acme", type: "LOGOUT", userId: "u1", sessionId: "s1", retentionSeconds: 60 }, stamp.time, stamp.id("login-event"))];
    void crashed.sso.end("r1", "s1", "logout", { also: logout });
    await waitUntil("the session's end", async () => (await repo.findById("r1", "s1")) === null);
    const next = await sessionsOver(bus);
    expect(await next.outbox.relay()).toBe(0); // within the crashed process's lease
    clock.advance(30_000);
    expect(await next.outbox.relay()).toBe(1);
    await waitUntil("the announcement", () => delivered.got.length === 1);
    expect(ended()).toEqual([{ sessionId: "s1", userId: "u1", clientIds: ["web"], reason: "logout" }]);
    await waitUntil("the LOGOUT event", () => logins.got.length === 1);
    const e = fromBinary(LoginEventSchema, logins.got[0]!.payload);
    expect({ id: e.id, type: e.type, sessionId: e.sessionId, userId: e.userId }).toEqual({ id: logins.got[0]!.id, type: "LOGOUT", sessionId: "s1", userId: "u1" });
  });

  it("after a crash before the session ended, the next process announces nothing and the session lives", async () => {
    const crashed = await sessionsOver(bus);
    const remove = repo.remove.bind(repo);
    repo.remove = () => new Promise<SsoSessionRecord | null>(() => undefined);
    void crashed.sso.end("r1", "s1", "logout");
    await sleep(50);
    repo.remove = remove;
    const next = await sessionsOver(bus);
    clock.advance(30_000);
    expect(await next.outbox.relay()).toBe(0);
    expect(await repo.findById("r1", "s1")).toMatchObject({ _id: "s1" });
    await sleep(20);
    expect(delivered.got).toEqual([]);
  });
});
