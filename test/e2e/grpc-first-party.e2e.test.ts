import { credentials, loadPackageDefinition, Metadata, status, type ServiceError } from "@grpc/grpc-js";
import { loadSync } from "@grpc/proto-loader";
import { join } from "node:path";
import { ROOT } from "./support/process-runner.js";
import { adminApi, uniqueName } from "./support/http.js";

/**
 * A first-party backend's view (issue: foundation): a plain @grpc/grpc-js client, with no Connect
 * code, calls the directory's RealmService of a cluster-mode service over gRPC/HTTP2.
 */
const directoryUrl = process.env.TESSERA_TEST_CLUSTER_DIRECTORY_URL;

if (!directoryUrl) {
  it("needs the cluster tier (TESSERA_TEST_MONGODB_URI + TESSERA_TEST_NATS_URL); not run here", () => {
    expect(directoryUrl).toBeUndefined();
  });
} else {
  describe("grpc-js client against the cluster directory", () => {
    const def = loadSync(join(ROOT, "proto/iam/directory/v1/realm.proto"), {
      includeDirs: [join(ROOT, "proto")], keepCase: false, longs: Number, defaults: true, oneofs: true,
    });
    const pkg = loadPackageDefinition(def) as any;
    const target = new URL(directoryUrl).host;
    const client = new pkg.iam.directory.v1.RealmService(target, credentials.createInsecure());
    afterAll(() => client.close());

    const call = <T>(method: string, req: object): Promise<T> =>
      new Promise((resolve, reject) => client[method](req, new Metadata(), (err: ServiceError | null, res: T) => (err ? reject(err) : resolve(res))));

    it("gets a realm created through the gateway", async () => {
      const name = uniqueName("grpc");
      const api = adminApi(process.env.TESSERA_TEST_CLUSTER_URL as string, process.env.TESSERA_TEST_CLUSTER_API_KEY as string);
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
  });
}
