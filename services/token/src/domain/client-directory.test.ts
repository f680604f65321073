import { Code } from "@connectrpc/connect";
import { ClientService } from "../../../../gen/iam/directory/v1/client_pb.js";
import { IamError } from "../../../kit/src/errors.js";
import { createDirectTransport } from "../../../kit/src/rpc/direct-transport.js";
import { serverInterceptor } from "../../../kit/src/rpc/server-interceptor.js";
import { TestClock } from "../../../kit/src/store/store-contract-kit.js";
import pino from "pino";
import { ClientDirectory } from "./client-directory.js";

/** ClientDirectory against a directory ClientService over the embedded (in-memory Connect) transport. */
function setup() {
  const clients = new Map<string, { clientId: string; clientType: string; enabled: boolean }>();
  const reads: string[] = [];
  let failNext: Error | null = null;
  const transport = createDirectTransport((r) => r.service(ClientService, {
    getClientCredentialVerifier(req) {
      reads.push(`${req.realm}/${req.clientId}`);
      if (failNext) { const e = failNext; failNext = null; throw e; }
      const c = clients.get(`${req.realm}/${req.clientId}`);
      if (!c) throw IamError.notFound("client", "client_not_found");
      return { client: { id: `id-${c.clientId}`, ...c }, verifierSalt: new Uint8Array([1]), verifier: new Uint8Array([2, 3]) };
    },
  }), { serverInterceptors: [serverInterceptor("directory", pino({ level: "silent" }))] });
  const clock = new TestClock();
  const add = (realm: string, clientId: string) => clients.set(`${realm}/${clientId}`, { clientId, clientType: "CONFIDENTIAL", enabled: true });
  return { dir: new ClientDirectory(transport, clock), clients, reads, clock, add, fail: (e: Error) => { failNext = e; } };
}

describe("ClientDirectory", () => {
  it("reads a client once, with its verifier, for both get and credentials", async () => {
    const { dir, reads, add } = setup();
    add("r", "app");
    expect(await dir.get("r", "app")).toMatchObject({ id: "id-app", clientId: "app", clientType: "CONFIDENTIAL", enabled: true });
    expect(await dir.credentials("r", "app")).toMatchObject({ verifier: { salt: Buffer.from([1]), digest: Buffer.from([2, 3]) } });
    expect(await dir.get("r", "app")).toMatchObject({ clientId: "app" });
    expect(reads).toEqual(["r/app"]);
  });

  it("never caches an unknown client: one created a moment later is found at once", async () => {
    const { dir, reads, add } = setup();
    expect(await dir.get("r", "later")).toBeNull();
    expect(await dir.credentials("r", "later")).toBeNull();
    add("r", "later");
    expect(await dir.get("r", "later")).toMatchObject({ clientId: "later" });
    expect(reads).toEqual(["r/later", "r/later", "r/later"]);
  });

  it("drops one client, or every client of a realm, on invalidate", async () => {
    const { dir, reads, add } = setup();
    for (const [realm, id] of [["r", "a"], ["r", "b"], ["s", "a"]] as const) { add(realm, id); await dir.get(realm, id); }
    dir.invalidate("r", "a");
    await dir.get("r", "a");
    await dir.get("r", "b");
    expect(reads.slice(3)).toEqual(["r/a"]);
    dir.invalidate("r");
    await Promise.all([dir.get("r", "a"), dir.get("r", "b"), dir.get("s", "a")]);
    expect(reads.slice(4)).toEqual(["r/a", "r/b"]);
  });

  it("reads again after 30 s even without an event", async () => {
    const { dir, reads, add, clock } = setup();
    add("r", "app");
    await dir.get("r", "app");
    clock.advance(29_999);
    await dir.get("r", "app");
    clock.advance(1);
    await dir.get("r", "app");
    expect(reads).toEqual(["r/app", "r/app"]);
  });

  it("passes other directory failures on, and caches nothing for them", async () => {
    const { dir, reads, add, fail } = setup();
    add("r", "app");
    fail(IamError.unavailable("directory store down"));
    await expect(dir.get("r", "app")).rejects.toMatchObject({ code: Code.Unavailable });
    expect(await dir.get("r", "app")).toMatchObject({ clientId: "app" });
    expect(reads).toEqual(["r/app", "r/app"]);
  });
});
