import http2 from "node:http2";
import type { AddressInfo } from "node:net";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { connectNodeAdapter, createGrpcTransport } from "@connectrpc/connect-node";
import pino from "pino";
import { FederationService } from "../../../../gen/iam/federation/v1/federation_pb.js";
import { generateMasterKey } from "../crypto/secret-box.js";
import { serverInterceptor } from "./server-interceptor.js";
import { internalRpcToken, presentServiceCredential, requireServiceCredential } from "./service-auth.js";

/** A service process as cluster mode serves one: gRPC over h2c, the error mapping, the credential check. */
describe("service credentials over gRPC", () => {
  const masterKey = generateMasterKey();
  const internal = internalRpcToken(masterKey);
  const apiKey = "first-party-backend-key";
  let server: http2.Http2Server;
  let baseUrl = "";
  let calls = 0;
  const sessions = new Set<http2.ServerHttp2Session>();

  beforeAll(async () => {
    const handler = connectNodeAdapter({
      routes: (r) => r.service(FederationService, { health: () => { calls++; return {}; } }),
      interceptors: [serverInterceptor("federation", pino({ level: "silent" })), requireServiceCredential([internal, apiKey])],
    });
    server = http2.createServer(handler);
    server.on("session", (s) => { sessions.add(s); s.on("close", () => sessions.delete(s)); });
    await new Promise<void>((res) => server.listen(0, "127.0.0.1", res));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    const closed = new Promise<void>((res) => server.close(() => res()));
    for (const s of sessions) s.close(); // the clients' sessions stay open between calls
    await closed;
  });

  const client = (authorization?: string) => createClient(FederationService, createGrpcTransport({
    baseUrl,
    interceptors: authorization === undefined ? [] : [(next) => async (req) => { req.header.set("authorization", authorization); return next(req); }],
  }));
  const refused = async (authorization?: string) => {
    const before = calls;
    const err = await client(authorization).health({}).then(() => null, (e: unknown) => ConnectError.from(e));
    expect(calls).toBe(before); // the handler never ran
    return err;
  };

  it("refuses a call without a credential, with a wrong one, or with a prefix of the right one", async () => {
    for (const authorization of [undefined, "Bearer wrong", `Bearer ${internal.slice(0, -1)}`, internal, `Basic ${apiKey}`, "Bearer "]) {
      const err = await refused(authorization);
      expect([err?.code, err?.rawMessage]).toEqual([Code.Unauthenticated, "this service needs a valid bearer credential (the admin API key)"]);
    }
  });

  it("answers the internal token (as the gateway and the services send it) and the admin API key", async () => {
    const before = calls;
    const internalClient = createClient(FederationService, createGrpcTransport({ baseUrl, interceptors: [presentServiceCredential(internal)] }));
    await expect(internalClient.health({})).resolves.toMatchObject({ $typeName: "iam.federation.v1.HealthResponse" });
    await expect(client(`Bearer ${apiKey}`).health({})).resolves.toMatchObject({ $typeName: "iam.federation.v1.HealthResponse" });
    expect(calls).toBe(before + 2);
  });

  it("derives the internal token from the master key: stable, distinct per key, and not the key itself", () => {
    expect(internalRpcToken(masterKey)).toBe(internal);
    expect(internalRpcToken(generateMasterKey())).not.toBe(internal);
    expect(internal).not.toBe(masterKey);
    expect(Buffer.from(internal, "base64url")).toHaveLength(32);
  });
});
