import { createClient, createRouterTransport, type Client } from "@connectrpc/connect";
import { RealmService } from "../../../gen/iam/directory/v1/realm_pb.js";
import { ClientService } from "../../../gen/iam/directory/v1/client_pb.js";
import { ClientScopeService, ScopeKind } from "../../../gen/iam/directory/v1/client_scope_pb.js";
import { UserService } from "../../../gen/iam/directory/v1/user_pb.js";
import { ClaimsService } from "../../../gen/iam/directory/v1/claims_pb.js";
import { openStore } from "../../kit/src/store/open-store.js";
import { openBus } from "../../kit/src/bus/open-bus.js";
import { createLogger } from "../../kit/src/logger.js";
import { createMetrics } from "../../kit/src/metrics.js";
import { SecretBox, generateMasterKey } from "../../kit/src/crypto/secret-box.js";
import { LazyTransport } from "../../kit/src/rpc/lazy-transport.js";
import { serverInterceptor } from "../../kit/src/rpc/server-interceptor.js";
import { PluginCalls } from "../../kit/src/plugins/plugin-calls.js";
import { PluginRegistry } from "../../kit/src/plugins/plugin-registry.js";
import type { TesseraPlugin } from "../../kit/src/plugins/plugin-api.js";
import { SERVICE_NAMES, type ServiceModule, type ServiceName } from "../../kit/src/module.js";
import { systemClock, type Store } from "../../kit/src/store/port.js";
import type { Bus } from "../../kit/src/bus/port.js";
import { buildDirectory } from "./module.js";
import { loadDirectoryConfig } from "./config.js";

/** Writes the login it is told of (plugin-api.ts MapperSession) into the claim `login`. */
const SESSION_PLUGIN: TesseraPlugin = {
  id: "session", version: "1.0.0", kinds: ["protocol-mapper"],
  protocolMapper: { defaultClaimName: "login", map: ({ session }) => ({ sid: session.id, auth_time: session.authTime }) },
};

// ResolveClaims with the login a token belongs to (session_id, auth_time), through real Connect
// routing to the directory module built in-process over sqlite :memory:, with a plugin loaded.
describe("the token's session in claims resolution", () => {
  const logger = createLogger("test", "silent");
  const realm = "sessions";
  let store: Store;
  let bus: Bus;
  let module: ServiceModule;
  let claims: Client<typeof ClaimsService>;
  let userId: string;

  beforeAll(async () => {
    store = await openStore({ kind: "sqlite", path: ":memory:", clock: systemClock });
    bus = await openBus({ kind: "memory", path: ":memory:", logger });
    const transports = Object.fromEntries(SERVICE_NAMES.map((n) => [n, new LazyTransport(n)])) as Record<ServiceName, LazyTransport>;
    const plugins = new PluginRegistry([{ source: "test", plugin: SESSION_PLUGIN }], new PluginCalls(5_000, logger));
    // A sole process: no announcement of the set-up's writes comes back later to make an entry stale.
    module = await buildDirectory(
      { store, bus, logger, metrics: createMetrics(), transports, secrets: new SecretBox(generateMasterKey()), clock: systemClock, plugins, soleProcess: true },
      loadDirectoryConfig({}),
    );
    await module.start();
    const t = createRouterTransport((r) => module.routes(r), { router: { interceptors: [serverInterceptor("directory", logger)] } });
    claims = createClient(ClaimsService, t);
    const clients = createClient(ClientService, t);
    const scopes = createClient(ClientScopeService, t);
    await createClient(RealmService, t).createRealm({ realm: { name: realm } });
    // "plugged" has the plugin's mapper among its default scopes; "plain" only the built-in ones.
    await clients.createClient({ realm, client: { clientId: "plugged" } });
    await clients.createClient({ realm, client: { clientId: "plain" } });
    const scope = (await scopes.createClientScope({ realm, scope: { name: "login" } })).scope!;
    await scopes.createProtocolMapper({ realm, scopeId: scope.id, mapper: { name: "login", mapperType: "plugin:session", config: {} } });
    await scopes.assignScope({ realm, clientId: "plugged", kind: ScopeKind.DEFAULT, clientScopeId: scope.id });
    userId = (await createClient(UserService, t).createUser({ realm, user: { username: "ann", firstName: "Ann" } })).user!.id;
  });
  afterAll(async () => {
    await module.stop();
    await bus.close();
    await store.close();
  });

  const resolve = (clientId: string, session: { sessionId?: string; authTime?: bigint }, fromStore = false) =>
    claims.resolveClaims({ realm, userId, clientId, scopes: ["profile"], fromStore, ...session });
  const claimOf = (json: string, name: string): unknown => (JSON.parse(json) as Record<string, unknown>)[name];

  it("tells a plugin mapper the session of each resolution, never another session's", async () => {
    const a = await resolve("plugged", { sessionId: "sso-a", authTime: 1_767_225_600n });
    const b = await resolve("plugged", { sessionId: "sso-b", authTime: 1_767_229_200n });
    const none = await resolve("plugged", {});
    for (const [res, login] of [[a, { sid: "sso-a", auth_time: 1_767_225_600 }], [b, { sid: "sso-b", auth_time: 1_767_229_200 }], [none, { sid: "" }]] as const) {
      expect([claimOf(res.accessTokenClaimsJson, "login"), claimOf(res.idTokenClaimsJson, "login"), claimOf(res.userinfoClaimsJson, "login")]).toStrictEqual([login, login, login]);
    }
  });

  it("keeps serving one cached resolution to every session of a client without plugin mappers", async () => {
    expect(claimOf((await resolve("plain", { sessionId: "sso-a", authTime: 1_767_225_600n })).userinfoClaimsJson, "given_name")).toBe("Ann");
    // Past the directory's write counting (its store is a wrapper of this one), so only a
    // resolution read afresh sees the change: the cached one stands until its 5 s bound.
    await (await store.collection({ name: "users" })).update({ _id: userId }, { $set: { firstName: "Changed" } });
    const other = await resolve("plain", { sessionId: "sso-b", authTime: 1_767_229_200n });
    const fresh = await resolve("plain", { sessionId: "sso-b", authTime: 1_767_229_200n }, true);
    expect([claimOf(other.userinfoClaimsJson, "given_name"), claimOf(fresh.userinfoClaimsJson, "given_name")]).toEqual(["Ann", "Changed"]);
  });
});
