import { launchCluster, type Cluster } from "../cluster/launch-cluster.js";
import { adminApi, http, uniqueName } from "./support/http.js";
import { startPrivateNats, type PrivateNats } from "./support/private-nats.js";
import { eventually } from "./support/targets.js";
import { verifyStandardWebhook, WebhookReceiver } from "./support/webhook-receiver.js";
import { describeTier } from "../support/tier.js";

// A webhook delivery survives the loss of the process delivering it (cluster mode: MongoDB-wire
// store, NATS JetStream). The audit process is killed (SIGKILL) while a delivery is in its retry
// loop, in the middle of an attempt whose lease it holds, and an event is published while no audit process runs; once audit is
// back, the lease runs out (2 x 1 s timeout + 5 s), the delivery is taken over, and the event
// waiting in JetStream is fanned out and delivered too. Its own NATS server, as stopping audit
// must not disturb other files.
const MONGO = process.env.TESSERA_TEST_MONGODB_URI as string;

describeTier("cluster tier", ["TESSERA_TEST_MONGODB_URI", "TESSERA_TEST_NATS_URL"], () => {
  describe("webhook deliveries survive the loss of the delivering process (cluster tier)", () => {
    let nats: PrivateNats | undefined;
    let cluster: Cluster | undefined;
    let receiver: WebhookReceiver | undefined;
    let api: ReturnType<typeof adminApi>;
    let realm: string;
    let clientSecret: string;
    const PW = "Cluster-Hook-1";

    beforeAll(async () => {
      receiver = await WebhookReceiver.start();
      nats = await startPrivateNats();
      cluster = await launchCluster({
        mongoUri: MONGO, natsUrl: nats.url, name: "webhooks",
        env: {
          TESSERA_OUTBOUND_ALLOW_LOOPBACK: "true", TESSERA_WEBHOOK_RETRY_BASE_MS: "200", TESSERA_WEBHOOK_RETRY_MAX_MS: "1000",
          TESSERA_WEBHOOK_POLL_MS: "200", TESSERA_WEBHOOK_TIMEOUT_MS: "1000",
        },
      });
      api = adminApi(cluster.url, cluster.apiKey);
      realm = uniqueName("hooks-cl");
      expect((await api.post("/admin/realms", { name: realm, eventsEnabled: true })).status).toBe(201);
      const c = await api.post(`/admin/realms/${realm}/clients`, { clientId: "web", grantTypes: ["password"] });
      expect(c.status).toBe(201);
      clientSecret = c.body.secret;
      expect((await api.post(`/admin/realms/${realm}/users`, { username: "lin", password: PW })).status).toBe(201);
    }, 120_000);

    afterAll(async () => {
      await cluster?.stop();
      await nats?.stop();
      await receiver?.down();
    }, 60_000);

    const login = () => http("POST", `${cluster!.url}/realms/${realm}/protocol/openid-connect/token`, {
      form: { grant_type: "password", client_id: "web", client_secret: clientSecret, username: "lin", password: PW },
    });

    it("takes over a killed process's delivery and delivers what was published while it was down", async () => {
      const made = await api.post(`/admin/realms/${realm}/webhooks`, { url: receiver!.url("/cluster"), eventTypes: ["LOGIN"] });
      expect(made.status).toBe(201);
      const list = async () => (await api.get(`/admin/realms/${realm}/webhooks/${made.body.id}/deliveries`)).body as Array<Record<string, any>>;
      receiver!.status = 503;
      expect((await login()).status).toBe(200);
      await eventually(list, (d) => d.length === 1 && d[0]!.status === "failed" && d[0]!.attempts >= 2, 30_000);
      // The next attempt hangs: the process is killed while it holds the delivery's lease.
      receiver!.hang = true;
      await eventually(async () => receiver!.hung, (n) => n >= 1, 30_000);
      await cluster!.processes.audit.stop("SIGKILL");
      receiver!.hang = false;
      expect((await login()).status).toBe(200);
      receiver!.status = 204;
      await cluster!.restart("audit");

      const done = await eventually(list, (d) => d.length === 2 && d.every((x) => x.status === "delivered"), 60_000);
      expect(done.map((d) => d.status)).toEqual(["delivered", "delivered"]);
      const got = receiver!.on("/cluster");
      expect(new Set(got.map((r) => r.json.data.id))).toEqual(new Set(done.map((d) => d.eventId)));
      for (const r of got) expect(verifyStandardWebhook(made.body.secret, r.headers, r.body)).toBe(true);
    }, 150_000);
  });
});
