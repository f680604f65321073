import { Code, ConnectError, createClient, createRouterTransport } from "@connectrpc/connect";
import { RealmTransferService } from "../../../../gen/iam/kit/v1/realm_transfer_pb.js";
import { lazyService } from "./lazy-service.js";

describe("lazyService", () => {
  it("builds the implementation at the first call, once, and answers through it", async () => {
    let builds = 0;
    const transport = createRouterTransport((router) => {
      router.service(RealmTransferService, lazyService(RealmTransferService, async () => {
        builds++;
        return { async validateRealmPart(req) { return { problems: [{ path: "$", message: `checked ${req.realm}` }] }; } };
      }));
    });
    const client = createClient(RealmTransferService, transport);
    expect(builds).toBe(0);
    const [a, b] = await Promise.all([client.validateRealmPart({ realm: "r1" }), client.validateRealmPart({ realm: "r2" })]);
    expect([a.problems[0]?.message, b.problems[0]?.message]).toEqual(["checked r1", "checked r2"]);
    expect(builds).toBe(1);
    // A method the implementation leaves out answers unimplemented, as the router would.
    const e = await client.exportRealmPart({ realm: "r1" }).then(() => undefined, (err: unknown) => ConnectError.from(err));
    expect(e?.code).toBe(Code.Unimplemented);
  });

  it("passes an implementation's error through unchanged", async () => {
    const transport = createRouterTransport((router) => {
      router.service(RealmTransferService, lazyService(RealmTransferService, async () => ({
        async importRealmPart() { throw new ConnectError("realmId is required", Code.InvalidArgument); },
      })));
    });
    const e = await createClient(RealmTransferService, transport).importRealmPart({}).then(() => undefined, (err: unknown) => ConnectError.from(err));
    expect([e?.code, e?.rawMessage]).toEqual([Code.InvalidArgument, "realmId is required"]);
  });
});
