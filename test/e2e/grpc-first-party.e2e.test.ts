import { credentials, loadPackageDefinition, Metadata, status, type ServiceError } from "@grpc/grpc-js";
import { loadSync } from "@grpc/proto-loader";
import { join } from "node:path";
import { ROOT } from "./support/process-runner.js";
import { adminApi, uniqueName } from "./support/http.js";
import { describeTier } from "../support/tier.js";

/**
 * A first-party backend's view: a plain @grpc/grpc-js client, with no Connect
 * code, calls the directory's RealmService of a cluster-mode service over gRPC/HTTP2, presenting
 * the admin API key as a bearer credential (README, Cluster mode).
 */
// Set by the global setup, which starts the suite's cluster when the tier's variables are set.
const directoryUrl = process.env.TESSERA_TEST_CLUSTER_DIRECTORY_URL as string;

describeTier("cluster tier", ["TESSERA_TEST_MONGODB_URI", "TESSERA_TEST_NATS_URL"], () => {
  describe("grpc-js client against the cluster directory", () => {
    const def = loadSync(join(ROOT, "proto/iam/directory/v1/realm.proto"), {
      includeDirs: [join(ROOT, "proto")], keepCase: false, longs: Number, defaults: true, oneofs: true,
    });
    const pkg = loadPackageDefinition(def) as any;
    const target = new URL(directoryUrl).host;
    const client = new pkg.iam.directory.v1.RealmService(target, credentials.createInsecure());
    afterAll(() => client.close());

    const apiKey = process.env.TESSERA_TEST_CLUSTER_API_KEY as string;
    const metadata = (authorization?: string): Metadata => {
      const m = new Metadata();
      if (authorization !== undefined) m.set("authorization", authorization);
      return m;
    };
    const callWith = <T>(authorization: string | undefined, method: string, req: object): Promise<T> =>
      new Promise((resolve, reject) => client[method](req, metadata(authorization), (err: ServiceError | null, res: T) => (err ? reject(err) : resolve(res))));
    const call = <T>(method: string, req: object): Promise<T> => callWith(`Bearer ${apiKey}`, method, req);

    it("refuses a call without the credential, or with a wrong one, before it reaches the service", async () => {
      const name = uniqueName("grpc-anon");
      for (const authorization of [undefined, "Bearer not-the-key", apiKey]) {
        const err = await callWith(authorization, "createRealm", { realm: { name } }).catch((e: ServiceError) => e);
        expect((err as ServiceError).code).toBe(status.UNAUTHENTICATED);
        expect((err as ServiceError).details).toBe("this service needs a valid bearer credential (the admin API key)");
      }
      const api = adminApi(process.env.TESSERA_TEST_CLUSTER_URL as string, apiKey);
      expect((await api.get(`/admin/realms/${name}`)).status).toBe(404);
    });

    it("gets a realm created through the gateway", async () => {
      const name = uniqueName("grpc");
      const api = adminApi(process.env.TESSERA_TEST_CLUSTER_URL as string, apiKey);
      expect((await api.post("/admin/realms", { name, displayName: "Over gRPC" })).status).toBe(201);
      const res = await call<{ realm: { name: string; displayName: string; accessTokenLifespan: number } }>("getRealm", { name });
      expect(res.realm).toMatchObject({ name, displayName: "Over gRPC", accessTokenLifespan: 300 });
    });

    it("maps a bad argument and a missing realm to gRPC status codes", async () => {
      const bad = await call("createRealm", { realm: { name: "Not A Slug" } }).catch((e: ServiceError) => e);
      expect((bad as ServiceError).code).toBe(status.INVALID_ARGUMENT);
      expect((bad as ServiceError).details).toContain("lowercase slug");
      const missing = await call("getRealm", { name: "no-such-realm-grpc" }).catch((e: ServiceError) => e);
      expect((missing as ServiceError).code).toBe(status.NOT_FOUND);
    });

    it("shows a realm title changed over gRPC on the gateway's login page at once, not after its 5 s cache", async () => {
      const name = uniqueName("grpc-look");
      const gatewayUrl = process.env.TESSERA_TEST_CLUSTER_URL as string;
      const api = adminApi(gatewayUrl, apiKey);
      expect((await api.post("/admin/realms", { name, displayName: "Before" })).status).toBe(201);
      expect((await api.post(`/admin/realms/${name}/clients`, { clientId: "web", redirectUris: ["https://app.example/cb"] })).status).toBe(201);
      const title = async () => {
        const res = await fetch(`${gatewayUrl}/realms/${name}/protocol/openid-connect/auth?${new URLSearchParams({ client_id: "web", redirect_uri: "https://app.example/cb", response_type: "code", scope: "openid" })}`);
        expect(res.status).toBe(200);
        return /<h1>([^<]*)<\/h1>/.exec(await res.text())?.[1];
      };
      expect(await title()).toBe("Before"); // cached in the gateway from here on
      await call("updateRealm", { name, update: { displayName: "After" } });
      // The directory's realm.updated reaches the gateway's watch within moments; the cache would hold 5 s.
      const until = Date.now() + 3_000;
      let seen = await title();
      while (seen !== "After" && Date.now() < until) {
        await new Promise((r) => setTimeout(r, 50));
        seen = await title();
      }
      expect(seen).toBe("After");
    });
  });
});
