import { launchCluster, type Cluster } from "../cluster/launch-cluster.js";
import { describeTier } from "../support/tier.js";
import { adminApi, http, uniqueName, type HttpResult } from "./support/http.js";
import { startPrivateNats, type PrivateNats } from "./support/private-nats.js";

// What clients see when a part of the cluster fails (docs/fault-handling.md). This file launches
// its own cluster on its own NATS server, which it kills and starts again, over the shared
// MongoDB-wire server (a unique database prefix): while NATS is down every write that commits
// answers success (or 503 with Retry-After), and once NATS is back every event of those writes
// arrives exactly once within 10 s. Then it SIGKILLs the token service under requests in flight:
// they and the requests after answer 503 temporarily_unavailable with Retry-After, never the
// socket's words.
describeTier("fault handling (cluster tier)", ["TESSERA_TEST_MONGODB_URI", "TESSERA_TEST_NATS_URL"], () => {
  let nats: PrivateNats | undefined;
  let cluster: Cluster | undefined;
  let api: ReturnType<typeof adminApi>;
  let realm: string;
  let secret: string;
  let userId: string;
  const PW = "Faulty-Pass-1";

  beforeAll(async () => {
    nats = await startPrivateNats();
    cluster = await launchCluster({ mongoUri: process.env.TESSERA_TEST_MONGODB_URI!, natsUrl: nats.url, name: "faults" });
    api = adminApi(cluster.url, cluster.apiKey);
    realm = uniqueName("faults");
    expect((await api.post("/admin/realms", { name: realm, eventsEnabled: true, adminEventsEnabled: true })).status).toBe(201);
    const c = await api.post(`/admin/realms/${realm}/clients`, { clientId: "web", grantTypes: ["password", "refresh_token"] });
    expect(c.status).toBe(201);
    secret = c.body.secret;
    const u = await api.post(`/admin/realms/${realm}/users`, { username: "lena", password: PW });
    expect(u.status).toBe(201);
    userId = u.body.id;
  }, 180_000);

  afterAll(async () => {
    await cluster?.stop();
    await nats?.stop();
  }, 60_000);

  const oidc = (endpoint: string) => `${cluster!.url}/realms/${realm}/protocol/openid-connect/${endpoint}`;
  const post = (endpoint: string, form: Record<string, string>) => http("POST", oidc(endpoint), { form: { client_id: "web", client_secret: secret, ...form } });
  const password = () => post("token", { grant_type: "password", username: "lena", password: PW });
  const loginEvents = async () => (await api.get(`/admin/realms/${realm}/events?max=1000`)).body as Array<{ id: string; type: string }>;
  const adminEvents = async () => (await api.get(`/admin/realms/${realm}/admin-events?max=1000`)).body as Array<{ id: string; operationType: string; resourcePath: string }>;

  /** A write's answer: success, or 503 with Retry-After; never a 500 after it was saved. */
  function succeededOrUnavailable(res: HttpResult, ok: number): boolean {
    if (res.status === 503) {
      expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
      return false;
    }
    expect({ status: res.status, body: res.body }).toEqual({ status: ok, body: res.body });
    return true;
  }

  /** Runs `call` and checks it did not wait on the bus (it once waited 5 s for the JetStream ack). */
  async function timed<T>(call: () => Promise<T>): Promise<T> {
    const started = Date.now();
    const out = await call();
    expect(Date.now() - started).toBeLessThan(3_000);
    return out;
  }

  it("answers committed writes while NATS is down, and delivers each of their events once, within 10 s of NATS returning", async () => {
    // Events flow before the outage (the audit durables are in place).
    expect((await password()).status).toBe(200);
    await until(async () => (await loginEvents()).length === 1);
    const loginsBefore = (await loginEvents()).map((e) => e.id);
    const adminBefore = (await adminEvents()).map((e) => e.id);

    await nats!.pause();
    const expectedLogin: string[] = [];
    const expectedAdmin: string[] = [];

    // Admin writes: an update and a creation.
    if (succeededOrUnavailable(await timed(() => api.put(`/admin/realms/${realm}/users/${userId}`, { firstName: "Lena" })), 200)) expectedAdmin.push(`UPDATE users/${userId}`);
    const created = await timed(() => api.post(`/admin/realms/${realm}/users`, { username: "mira" }));
    if (succeededOrUnavailable(created, 201)) expectedAdmin.push(`CREATE users/${created.body.id}`);
    // A password grant, its refresh, the refreshed token's revocation.
    const first = await timed(password);
    expect(succeededOrUnavailable(first, 200)).toBe(true);
    expectedLogin.push("LOGIN");
    const refreshed = await timed(() => post("token", { grant_type: "refresh_token", refresh_token: first.body.refresh_token }));
    expect(succeededOrUnavailable(refreshed, 200)).toBe(true);
    expectedLogin.push("REFRESH_TOKEN");
    // The rotated token is not "already used": the refresh answered, so the client holds the new one.
    expect((await timed(() => post("revoke", { token: refreshed.body.refresh_token, token_type_hint: "refresh_token" }))).status).toBe(200);
    expectedLogin.push("REVOKE_GRANT");
    // Another login, ended by logout.
    const second = await timed(password);
    expect(succeededOrUnavailable(second, 200)).toBe(true);
    expectedLogin.push("LOGIN");
    expect((await timed(() => post("logout", { refresh_token: second.body.refresh_token }))).status).toBe(204);
    expectedLogin.push("LOGOUT");

    await nats!.resume();
    const back = Date.now();
    const newLogins = async () => (await loginEvents()).filter((e) => !loginsBefore.includes(e.id));
    const newAdmin = async () => (await adminEvents()).filter((e) => !adminBefore.includes(e.id) && e.resourcePath.startsWith("users/"));
    await until(async () => (await newLogins()).length >= expectedLogin.length && (await newAdmin()).length >= expectedAdmin.length, 10_000)
      .catch(async (e: Error) => {
        throw new Error(`${e.message}: login events ${JSON.stringify((await newLogins()).map((x) => x.type))} of ${JSON.stringify(expectedLogin)}, admin events ${JSON.stringify((await newAdmin()).map((x) => x.operationType))} of ${JSON.stringify(expectedAdmin)}`);
      });
    expect(Date.now() - back).toBeLessThan(10_000);
    // Exactly once: no copy arrives later either.
    await new Promise((r) => setTimeout(r, 2_000));
    const logins = await newLogins();
    expect(logins.map((e) => e.type).sort()).toEqual([...expectedLogin].sort());
    expect(new Set(logins.map((e) => e.id)).size).toBe(logins.length);
    const admin = await newAdmin();
    expect(admin.map((e) => `${e.operationType} ${e.resourcePath}`).sort()).toEqual([...expectedAdmin].sort());
    expect(new Set(admin.map((e) => e.id)).size).toBe(admin.length);
  }, 120_000);

  it("answers 503 temporarily_unavailable with Retry-After, never the socket's message, when the token service is killed mid-request and while it is gone", async () => {
    // Token requests in flight (each spends tens of ms hashing the password) when the process dies.
    const inFlight = Array.from({ length: 8 }, () => password());
    await new Promise((r) => setTimeout(r, 40));
    await cluster!.processes.token.stop("SIGKILL");
    const answers = await Promise.all(inFlight);
    const after = await password();
    const revoke = await post("revoke", { token: "whatever" });
    for (const res of [...answers, after, revoke]) {
      if (res.status === 200) continue; // answered before the kill
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toBe("5");
      expect(res.body.error).toBe("temporarily_unavailable");
      expect(res.text).not.toMatch(/ECONN|socket|stream|http\/2|EPIPE/i);
    }
    expect(after.status).toBe(503);
    expect(revoke.status).toBe(503);
    // The Admin API's answer for a service it cannot reach, and a hosted page's.
    const sessions = await api.get(`/admin/realms/${realm}/sessions`);
    expect(sessions.status).toBe(503);
    expect(sessions.headers.get("retry-after")).toBe("5");
    expect(sessions.body).toEqual({ error: "unavailable", message: expect.any(String) });
    expect(sessions.text).not.toMatch(/ECONN|socket|stream|http\/2/i);
    const page = await http("GET", `${oidc("auth")}?client_id=web&response_type=code&redirect_uri=${encodeURIComponent("http://localhost:3996/cb")}&scope=openid`);
    expect(page.status).toBe(503);
    expect(page.headers.get("retry-after")).toBe("5");
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    expect(page.text).not.toMatch(/ECONN|socket/i);

    await cluster!.restart("token");
    expect((await password()).status).toBe(200);
  }, 120_000);
});

async function until(check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 200));
  }
}
