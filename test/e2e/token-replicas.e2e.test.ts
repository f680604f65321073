import { decodeProtectedHeader } from "jose";
import { launchCluster, type Cluster } from "../cluster/launch-cluster.js";
import { adminApi, http, uniqueName } from "./support/http.js";
import { freePort } from "./support/free-port.js";
import { startNode, waitForHttp, type RunningProcess } from "./support/process-runner.js";
import { startPrivateNats, type PrivateNats } from "./support/private-nats.js";
import { describeTier } from "../support/tier.js";

// Two replicas of the token and directory services (what a Helm deployment scaling token
// issuance runs), the second pair behind a gateway of its own, over one MongoDB-wire server and
// one NATS JetStream: a change made through one replica reaches the caches of both (DESIGN 3,
// "client.updated (caches drop)"). The token service caches clients for 30 s, realms for 5 s,
// service-account grants for 10 s and signing keys for 30 s, the directory realms and client token
// configurations for 5 s, each loaded moments before the change, so every assertion below allows
// 3 s (room for a loaded CI machine, still short of every cache age): passing means the event
// reached the replicas that did not make the change. No test here has
// two replicas write the same document at once: FerretDB v1 serialises writes per process only
// (README, Cluster mode). NATS is this file's own server: on the suite's, this cluster's services
// would share durables with the suite's cluster and take its events. Cluster tier only: the
// embedded mode is one process.
const MONGO = process.env.TESSERA_TEST_MONGODB_URI as string;
const WITHIN_MS = 3_000;

describeTier("cluster tier", ["TESSERA_TEST_MONGODB_URI", "TESSERA_TEST_NATS_URL"], () => {
  describe("token service replicas share cache invalidation (cluster tier)", () => {
    let nats: PrivateNats | undefined;
    let cluster: Cluster | undefined;
    let second: RunningProcess[] = [];
    let gateways: string[] = [];
    let api: ReturnType<typeof adminApi>;

    beforeAll(async () => {
      nats = await startPrivateNats();
      cluster = await launchCluster({ mongoUri: MONGO, natsUrl: nats.url, name: "replicas" });
      api = adminApi(cluster.url, cluster.apiKey);
      // Replicas 2: the same configuration, their own addresses, and a gateway that sends to them.
      const port = await freePort();
      const env = {
        ...cluster.env,
        TESSERA_DIRECTORY_URL: `http://127.0.0.1:${await freePort()}`,
        TESSERA_TOKEN_URL: `http://127.0.0.1:${await freePort()}`,
      };
      second.push(startNode("services/directory/src/main.js", env, "cluster-replicas-directory-2"));
      second.push(startNode("services/token/src/main.js", env, "cluster-replicas-token-2"));
      const gateway = startNode("gateway/src/main.js", { ...env, TESSERA_PORT: String(port) }, "cluster-replicas-gateway-2");
      second.push(gateway);
      const url2 = `http://localhost:${port}`;
      await waitForHttp(`${url2}/health/ready`, gateway, 60_000);
      gateways = [cluster.url, url2];
    }, 120_000);

    afterAll(async () => {
      await Promise.all(second.map((p) => p.stop()));
      await cluster?.stop();
      await nats?.stop();
    }, 60_000);

    const basic = (id: string, s: string) => `Basic ${Buffer.from(`${id}:${s}`).toString("base64")}`;
    const cc = (gateway: string, realm: string, secret: string) => http("POST", `${gateway}/realms/${realm}/protocol/openid-connect/token`, {
      form: { grant_type: "client_credentials" }, headers: { authorization: basic("svc", secret) },
    });
    const certs = async (gateway: string, realm: string): Promise<string[]> => {
      const res = await http("GET", `${gateway}/realms/${realm}/protocol/openid-connect/certs`);
      expect(res.status).toBe(200);
      return (JSON.parse(res.text).keys as Array<{ kid: string }>).map((k) => k.kid).sort();
    };
    /** Polls `probe` on every gateway until `done` holds for all, for at most WITHIN_MS. */
    const onEveryReplica = async <T>(probe: (gateway: string) => Promise<T>, done: (t: T) => boolean): Promise<T[]> => {
      const until = Date.now() + WITHIN_MS;
      for (;;) {
        const seen = await Promise.all(gateways.map(probe));
        if (seen.every(done) || Date.now() > until) return seen;
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    const newRealm = async (prefix: string): Promise<{ realm: string; secret: string }> => {
      const realm = uniqueName(prefix);
      expect((await api.post("/admin/realms", { name: realm, accessTokenLifespan: 120 })).status).toBe(201);
      const svc = await api.post(`/admin/realms/${realm}/clients`, { clientId: "svc", grantTypes: ["client_credentials"] });
      expect(svc.status).toBe(201);
      return { realm, secret: svc.body.secret as string };
    };

    it("serves one realm through both replicas", async () => {
      const { realm, secret } = await newRealm("rep-serve");
      for (const g of gateways) {
        const res = await cc(g, realm, secret);
        expect(res.status).toBe(200);
        expect(res.body.expires_in).toBe(120);
      }
      expect(await certs(gateways[1]!, realm)).toEqual(await certs(gateways[0]!, realm));
    });

    it("refuses a disabled client on both replicas, and a regenerated secret's predecessor", async () => {
      const { realm, secret } = await newRealm("rep-client");
      for (const g of gateways) expect((await cc(g, realm, secret)).status).toBe(200); // both caches warm
      const regen = await api.post(`/admin/realms/${realm}/clients/svc/regenerate-secret`);
      expect(regen.status).toBe(200);
      const fresh = regen.body.secret as string;
      expect((await onEveryReplica((g) => cc(g, realm, secret), (r) => r.status === 401)).map((r) => [r.status, r.body.error]))
        .toEqual([[401, "invalid_client"], [401, "invalid_client"]]);
      for (const g of gateways) expect((await cc(g, realm, fresh)).status).toBe(200);
      expect((await api.put(`/admin/realms/${realm}/clients/svc`, { enabled: false })).status).toBe(200);
      expect((await onEveryReplica((g) => cc(g, realm, fresh), (r) => r.status === 401)).map((r) => r.status)).toEqual([401, 401]);
    });

    it("applies a realm's new token lifespan on both replicas, and both directories show it", async () => {
      const { realm, secret } = await newRealm("rep-realm");
      const admin = (g: string) => adminApi(g, cluster!.apiKey).get(`/admin/realms/${realm}`);
      for (const g of gateways) {
        expect((await cc(g, realm, secret)).body.expires_in).toBe(120);
        expect((await admin(g)).body.accessTokenLifespan).toBe(120);
      }
      expect((await api.put(`/admin/realms/${realm}`, { accessTokenLifespan: 90 })).status).toBe(200);
      expect((await onEveryReplica((g) => cc(g, realm, secret), (r) => r.body.expires_in === 90)).map((r) => r.body.expires_in)).toEqual([90, 90]);
      expect((await onEveryReplica(admin, (r) => r.body.accessTokenLifespan === 90)).map((r) => r.body.accessTokenLifespan)).toEqual([90, 90]);
    });

    it("refuses logins and tokens of a realm disabled through the other replicas", async () => {
      const { realm, secret } = await newRealm("rep-disable");
      for (const g of gateways) expect((await cc(g, realm, secret)).status).toBe(200);
      expect((await api.put(`/admin/realms/${realm}`, { enabled: false })).status).toBe(200);
      const refused = await onEveryReplica((g) => cc(g, realm, secret), (r) => r.status === 404);
      expect(refused.map((r) => [r.status, r.body.error])).toEqual([[404, "realm_not_found"], [404, "realm_not_found"]]);
    });

    it("puts a protocol mapper added through one directory into the next client_credentials token of both replicas", async () => {
      const { realm, secret } = await newRealm("rep-mapper");
      const claimOf = async (g: string) => {
        const res = await cc(g, realm, secret);
        expect(res.status).toBe(200);
        return JSON.parse(Buffer.from(res.body.access_token.split(".")[1], "base64url").toString()).tier as unknown;
      };
      // Both replicas now hold the service account's grant (10 s) and the client's configuration (5 s).
      expect(await Promise.all(gateways.map(claimOf))).toEqual([undefined, undefined]);
      const scope = await api.post(`/admin/realms/${realm}/client-scopes`, { name: "tiers" });
      expect(scope.status).toBe(201);
      expect((await api.post(`/admin/realms/${realm}/client-scopes/${scope.body.id}/protocol-mappers`, {
        name: "tier", mapperType: "oidc-hardcoded-claim-mapper", config: { "claim.name": "tier", "claim.value": "gold", "access.token.claim": "true" },
      })).status).toBe(201);
      expect((await api.post(`/admin/realms/${realm}/clients/svc/default-client-scopes`, { clientScopeId: scope.body.id })).status).toBe(200);
      expect(await onEveryReplica(claimOf, (tier) => tier === "gold")).toEqual(["gold", "gold"]);
    });

    it("puts a role mapped to the service account through one directory into the next token of both replicas", async () => {
      const { realm, secret } = await newRealm("rep-sa-role");
      const rolesOf = async (g: string) => {
        const res = await cc(g, realm, secret);
        expect(res.status).toBe(200);
        return JSON.parse(Buffer.from(res.body.access_token.split(".")[1], "base64url").toString()).realm_access.roles as string[];
      };
      expect((await api.post(`/admin/realms/${realm}/roles`, { name: "billing" })).status).toBe(201);
      // Both replicas now hold the service account's grant (10 s).
      expect((await Promise.all(gateways.map(rolesOf))).map((r) => r.includes("billing"))).toEqual([false, false]);
      const saId = (await api.get(`/admin/realms/${realm}/clients/svc/service-account-user`)).body.id as string;
      expect((await api.post(`/admin/realms/${realm}/users/${saId}/role-mappings/realm`, { roleNames: ["billing"] })).status).toBe(200);
      expect((await onEveryReplica(rolesOf, (r) => r.includes("billing"))).map((r) => r.includes("billing"))).toEqual([true, true]);
    });

    it("applies web origins, a realm's title and its rate limit changed through one gateway in the other gateway's caches", async () => {
      const { realm, secret } = await newRealm("rep-gateway");
      const app = "https://app.example";
      expect((await api.post(`/admin/realms/${realm}/clients`, { clientId: "web", redirectUris: [`${app}/cb`] })).status).toBe(201);
      const corsOf = async (g: string) => (await http("POST", `${g}/realms/${realm}/protocol/openid-connect/token`, {
        form: { grant_type: "client_credentials" }, headers: { authorization: basic("svc", secret), origin: app },
      })).headers.get("access-control-allow-origin");
      const titleOf = async (g: string) => {
        const res = await http("GET", `${g}/realms/${realm}/protocol/openid-connect/auth?${new URLSearchParams({ client_id: "web", redirect_uri: `${app}/cb`, response_type: "code", scope: "openid" })}`);
        expect(res.status).toBe(200);
        return /<h1>([^<]*)<\/h1>/.exec(res.text)?.[1];
      };
      // Both gateways now hold the client's origins (5 s), the realm's look (5 s) and its limits (10 s).
      expect(await Promise.all(gateways.map(corsOf))).toEqual([null, null]);
      expect(await Promise.all(gateways.map(titleOf))).toEqual([realm, realm]);
      for (const g of gateways) expect((await cc(g, realm, secret)).status).toBe(200);

      expect((await api.put(`/admin/realms/${realm}/clients/svc`, { webOrigins: [app] })).status).toBe(200);
      expect(await onEveryReplica(corsOf, (o) => o === app)).toEqual([app, app]);
      expect((await api.put(`/admin/realms/${realm}`, { displayName: "Replica Portal", rateLimitPerIp: 1 })).status).toBe(200);
      expect(await onEveryReplica(titleOf, (t) => t === "Replica Portal")).toEqual(["Replica Portal", "Replica Portal"]);
      // One request a minute per address: the second in a row is refused once the limit applies.
      const statuses = await onEveryReplica(async (g) => [(await cc(g, realm, secret)).status, (await cc(g, realm, secret)).status], ([, b]) => b === 429);
      expect(statuses.map(([, b]) => b)).toEqual([429, 429]);
    });

    it("bounds wrong user codes across both replicas: 10 in the window, whichever replica served them (RFC 8628 section 5.1)", async () => {
      const { realm } = await newRealm("rep-device");
      expect((await api.post(`/admin/realms/${realm}/clients`, {
        clientId: "tv", clientType: "PUBLIC", grantTypes: ["urn:ietf:params:oauth:grant-type:device_code"],
      })).status).toBe(201);
      const lookUp = (g: string, code: string) => http("GET", `${g}/realms/${realm}/device?user_code=${encodeURIComponent(code)}`);
      // The default bound (TESSERA_DEVICE_USER_CODE_FAILURES 10 in 60 s), five wrong codes on each.
      for (let i = 0; i < 10; i++) {
        const res = await lookUp(gateways[i % 2]!, "BCDF-GHJK");
        expect(res.status).toBe(200);
        expect(res.text).toContain("Invalid or expired code. Please check the code and try again.");
      }
      // Each replica alone has served five: counted apart, both would still let a guess through.
      for (const g of gateways) {
        const refused = await lookUp(g, "BCDF-GHJK");
        expect(refused.status).toBe(429);
        expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      }
    });

    it("publishes a key rotated through one replica in both JWKS, and both sign with it", async () => {
      const { realm, secret } = await newRealm("rep-keys");
      const before = await certs(gateways[0]!, realm);
      expect(before).toHaveLength(1);
      expect(await certs(gateways[1]!, realm)).toEqual(before); // both caches warm
      for (const g of gateways) expect(decodeProtectedHeader((await cc(g, realm, secret)).body.access_token).kid).toBe(before[0]);
      const rotated = await api.post(`/admin/realms/${realm}/keys/rotate`);
      expect(rotated.status).toBe(200);
      const fresh = rotated.body[0].kid as string;
      const both = [fresh, before[0]!].sort();
      expect(await onEveryReplica((g) => certs(g, realm), (kids) => kids.length === 2)).toEqual([both, both]);
      const kids = await onEveryReplica(async (g) => decodeProtectedHeader((await cc(g, realm, secret)).body.access_token).kid, (kid) => kid === fresh);
      expect(kids).toEqual([fresh, fresh]);
    });
  });
});
