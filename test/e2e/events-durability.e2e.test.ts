import { launchCluster, type Cluster } from "../cluster/launch-cluster.js";
import { adminApi, http, uniqueName } from "./support/http.js";
import { startPrivateNats, type PrivateNats } from "./support/private-nats.js";
import { describeTier } from "../support/tier.js";

// Login events survive an audit outage (DESIGN 4 "Bus port": durable consumers, at-least-once,
// idempotent by event id). Cluster tier only: this file launches its own cluster on its own NATS
// server (so stopping audit disturbs no other file) over the shared MongoDB-wire server (a unique
// database prefix per cluster), stops the audit process, logs in and out, restarts audit, and
// checks that every event is stored exactly once.
const MONGO = process.env.TESSERA_TEST_MONGODB_URI as string;

describeTier("cluster tier", ["TESSERA_TEST_MONGODB_URI", "TESSERA_TEST_NATS_URL"], () => {
  describe("login events survive an audit outage (cluster tier)", () => {
    let nats: PrivateNats | undefined;
    let cluster: Cluster | undefined;
    let api: ReturnType<typeof adminApi>;
    let realm: string;
    let secret: string;
    const PW = "Durable-Pass-1";

    beforeAll(async () => {
      nats = await startPrivateNats();
      cluster = await launchCluster({ mongoUri: MONGO, natsUrl: nats.url, name: "durability" });
      api = adminApi(cluster.url, cluster.apiKey);
      realm = uniqueName("durable");
      expect((await api.post("/admin/realms", { name: realm, eventsEnabled: true })).status).toBe(201);
      const c = await api.post(`/admin/realms/${realm}/clients`, { clientId: "web", grantTypes: ["password", "refresh_token"] });
      expect(c.status).toBe(201);
      secret = c.body.secret;
      expect((await api.post(`/admin/realms/${realm}/users`, { username: "lena", password: PW })).status).toBe(201);
    }, 120_000);

    afterAll(async () => {
      await cluster?.stop();
      await nats?.stop();
    }, 60_000);

    const grant = (form: Record<string, string>) => http("POST", `${cluster!.url}/realms/${realm}/protocol/openid-connect/token`, {
      form: { client_id: "web", client_secret: secret, ...form },
    });
    const events = async () => (await api.get(`/admin/realms/${realm}/events?max=1000`)).body as Array<{ id: string; type: string }>;

    it("stores the events published while audit was down once it is back, each exactly once", async () => {
      // One event while audit runs, so its durable consumer is known to be in place.
      expect((await grant({ grant_type: "password", username: "lena", password: PW })).status).toBe(200);
      await until(async () => (await events()).length === 1);

      await cluster!.processes.audit.stop();
      const first = await grant({ grant_type: "password", username: "lena", password: PW });
      expect(first.status).toBe(200);
      expect((await grant({ grant_type: "password", username: "lena", password: "wrong-Pass-9" })).status).toBe(400);
      const refreshed = await grant({ grant_type: "refresh_token", refresh_token: first.body.refresh_token });
      expect(refreshed.status).toBe(200);
      expect((await http("POST", `${cluster!.url}/realms/${realm}/protocol/openid-connect/logout`, {
        form: { client_id: "web", client_secret: secret, refresh_token: refreshed.body.refresh_token },
      })).status).toBe(204);

      await cluster!.restart("audit");
      await until(async () => (await events()).length >= 5, 30_000);
      // Redeliveries (at-least-once) must not add copies: wait, then restart audit once more.
      await new Promise((r) => setTimeout(r, 1_500));
      await cluster!.processes.audit.stop();
      await cluster!.restart("audit");
      await new Promise((r) => setTimeout(r, 1_500));
      const stored = await events();
      expect(stored.map((e) => e.type).sort()).toEqual(["LOGIN", "LOGIN", "LOGIN_ERROR", "LOGOUT", "REFRESH_TOKEN"]);
      expect(new Set(stored.map((e) => e.id)).size).toBe(5);
    }, 120_000);
  });
});

async function until(check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 200));
  }
}
