import { Code, ConnectError, createClient, type Interceptor } from "@connectrpc/connect";
import pino from "pino";
import { RealmService } from "../../../../gen/iam/directory/v1/realm_pb.js";
import { ErrorDetailSchema } from "../../../../gen/iam/kit/v1/kit_pb.js";
import { IamError } from "../errors.js";
import { currentContext, runWithContext } from "../context.js";
import { contextPropagation } from "./client-interceptor.js";
import { createDirectTransport } from "./direct-transport.js";
import { serverInterceptor } from "./server-interceptor.js";

const logger = pino({ level: "silent" });

function realmsClient(opts: { freezeMessages?: boolean; extra?: Interceptor[] } = {}) {
  const seen: { requestId?: string; actor?: string } = {};
  const transport = createDirectTransport((r) => r.service(RealmService, {
    getRealm(req) {
      seen.requestId = currentContext()?.requestId;
      seen.actor = currentContext()?.actor?.username;
      if (req.name === "missing") throw IamError.notFound("realm missing", "realm_not_found");
      if (req.name === "crash") throw new Error("secret detail of a bug");
      return { realm: { name: req.name, displayName: `Realm ${req.name}`, enabled: true } };
    },
    listRealms() {
      return Promise.resolve({ realms: [{ name: "a" }, { name: "b" }] });
    },
  }), {
    serverInterceptors: [serverInterceptor("directory", logger), ...(opts.extra ?? [])],
    clientInterceptors: [contextPropagation],
    ...(opts.freezeMessages ? { freezeMessages: true } : {}),
  });
  return { client: createClient(RealmService, transport), seen };
}

describe("createDirectTransport", () => {
  it("calls the implementation and returns a complete message of the output type", async () => {
    const { client } = realmsClient();
    const res = await client.getRealm({ name: "acme" });
    expect(res.$typeName).toBe("iam.directory.v1.GetRealmResponse");
    expect(res.realm?.$typeName).toBe("iam.directory.v1.Realm");
    expect(res.realm?.name).toBe("acme");
    expect(res.realm?.displayName).toBe("Realm acme");
    // Fields the handler left out carry their proto3 defaults, as after decoding.
    expect(res.realm?.registrationAllowed).toBe(false);
    expect((await client.listRealms({})).realms.map((r) => r.name)).toEqual(["a", "b"]);
  });

  it("maps IamError to a ConnectError with the ErrorDetail, as over the network", async () => {
    const { client } = realmsClient();
    const err = await client.getRealm({ name: "missing" }).then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectError);
    const ce = err as ConnectError;
    expect(ce.code).toBe(Code.NotFound);
    expect(ce.rawMessage).toBe("realm missing not found");
    expect(ce.findDetails(ErrorDetailSchema).map((d) => d.reason)).toEqual(["realm_not_found"]);
  });

  it("hides unexpected errors behind Internal", async () => {
    const { client } = realmsClient();
    const err = (await client.getRealm({ name: "crash" }).catch((e: unknown) => e)) as ConnectError;
    expect(err.code).toBe(Code.Internal);
    expect(err.rawMessage).toBe("internal error");
  });

  it("an unimplemented method is Unimplemented", async () => {
    const { client } = realmsClient();
    const err = (await client.deleteRealm({ name: "x" }).catch((e: unknown) => e)) as ConnectError;
    expect(err.code).toBe(Code.Unimplemented);
  });

  it("carries the caller's request id and actor through the interceptors", async () => {
    const { client, seen } = realmsClient();
    await runWithContext({ requestId: "req-42", logger, actor: { type: "admin", username: "alice" } }, () => client.getRealm({ name: "acme" }));
    expect(seen).toEqual({ requestId: "req-42", actor: "alice" });
  });

  it("runs server interceptors in order around the implementation", async () => {
    const order: string[] = [];
    const tap = (name: string): Interceptor => (next) => async (req) => {
      order.push(`${name}>`);
      const res = await next(req);
      order.push(`<${name}`);
      return res;
    };
    const { client } = realmsClient({ extra: [tap("a"), tap("b")] });
    await client.getRealm({ name: "acme" });
    expect(order).toEqual(["a>", "b>", "<b", "<a"]);
  });

  it("freezes requests and responses when asked, so mutating a foreign message throws", async () => {
    const { client } = realmsClient({ freezeMessages: true });
    const res = await client.getRealm({ name: "acme" });
    expect(Object.isFrozen(res)).toBe(true);
    expect(Object.isFrozen(res.realm)).toBe(true);
    expect(() => { (res.realm as { name: string }).name = "other"; }).toThrow(TypeError);
    const unfrozen = await realmsClient().client.getRealm({ name: "acme" });
    expect(Object.isFrozen(unfrozen)).toBe(false);
  });
});
