import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as oidc from "openid-client";
import { decodeJwt } from "jose";
import { generateMasterKey } from "../../services/kit/src/crypto/secret-box.js";
import { adminApi, recordResponses, uniqueName } from "./support/http.js";
import { startEmbeddedServer, type TestServer } from "./support/embedded-server.js";
import { eventually, targets } from "./support/targets.js";
import { BrowserSession } from "./support/browser-session.js";
import { freePort } from "./support/free-port.js";
import { DIST, ROOT } from "./support/process-runner.js";
import { expectResponsesDocumented } from "./support/openapi-check.js";

const recorded = recordResponses();
const PW = "Plugins-Pass-1";
const CB = "http://localhost:3997/cb";
const EXAMPLE = join(ROOT, "examples", "plugins", "tessera-plugin-example");

/** A plugin package under `<dir>/node_modules/<name>`, its index.js `source`. */
function writePackage(dir: string, name: string, source: string): void {
  const at = join(dir, "node_modules", name);
  mkdirSync(at, { recursive: true });
  writeFileSync(join(at, "package.json"), JSON.stringify({ name, version: "1.0.0", type: "module", exports: { ".": "./index.js" } }));
  writeFileSync(join(at, "index.js"), source);
}

// A plugin broken on purpose: its mapper throws, its listener throws on every event.
const THROWING = `export default { id: "throws", version: "0.1.0", kinds: ["protocol-mapper", "event-listener"],
  protocolMapper: { defaultClaimName: "throws_claim", map() { throw new Error("mapper broke"); } },
  eventListener: { onLoginEvent() { throw new Error("listener broke"); }, onAdminEvent() { return Promise.reject(new Error("listener broke")); } } };`;
// One whose mapper never answers: the token waits for the timeout, not for ever.
const HANGING = `export default { id: "hangs", version: "0.1.0", kinds: ["protocol-mapper"],
  protocolMapper: { defaultClaimName: "hangs_claim", map: () => new Promise(() => {}) } };`;
// One whose mapper writes the login it is told of (MapperInput.session) into its claim.
const SESSION = `export default { id: "session", version: "0.1.0", kinds: ["protocol-mapper"],
  protocolMapper: { defaultClaimName: "login", map: ({ session }) => ({ sid: session.id, auth_time: session.authTime }) } };`;

/** Runs a compiled entry to its exit (a refused start), its stderr kept. */
function runToExit(entry: string, env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(DIST, entry)], { env: { PATH: process.env.PATH ?? "", TESSERA_LOG_LEVEL: "warn", ...env }, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (b: Buffer) => { stderr += b.toString(); });
    const timer = setTimeout(() => { child.kill("SIGKILL"); reject(new Error(`${entry} still running: ${stderr}`)); }, 60_000);
    child.once("close", (code) => { clearTimeout(timer); resolve({ code, stderr }); });
  });
}

// Plugins (docs/plugins.md) in both run modes. Embedded: a real process of its own, the example
// package found by name under TESSERA_PLUGIN_DIR beside a throwing, a hanging and a session plugin. Cluster:
// the shared cluster, which the global setup starts with the example plugin (by path) in every
// service process. openid-client is the relying party.
describe.each(targets())("plugins ($mode)", (target) => {
  const embedded = target.mode === "embedded";
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;
  let dir: string | undefined;
  let eventsFile: string;
  let realm: string;
  let secret: string;
  let webSecret: string;
  let scopeId: string;
  const issuer = () => `${server.url}/realms/${realm}`;
  const mappers = () => `/admin/realms/${realm}/client-scopes/${scopeId}/protocol-mappers`;
  const events = (): Array<Record<string, unknown>> =>
    existsSync(eventsFile) ? readFileSync(eventsFile, "utf8").trim().split("\n").filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>) : [];

  async function startWithPlugins(): Promise<TestServer> {
    if (!embedded) {
      eventsFile = process.env.TESSERA_TEST_CLUSTER_PLUGIN_EVENTS as string;
      return target.start("plugins");
    }
    dir = mkdtempSync(join(tmpdir(), "tessera-plugins-e2e-"));
    eventsFile = join(dir, "events.jsonl");
    mkdirSync(join(dir, "node_modules"));
    symlinkSync(EXAMPLE, join(dir, "node_modules", "tessera-plugin-example"), "dir");
    writePackage(dir, "tessera-plugin-throws", THROWING);
    writePackage(dir, "tessera-plugin-hangs", HANGING);
    writePackage(dir, "tessera-plugin-session", SESSION);
    return startEmbeddedServer("plugins", {
      TESSERA_PLUGINS: "tessera-plugin-example,tessera-plugin-throws,tessera-plugin-hangs,tessera-plugin-session",
      TESSERA_PLUGIN_DIR: dir,
      TESSERA_PLUGIN_TIMEOUT_MS: "300",
      TESSERA_EXAMPLE_EVENTS_FILE: eventsFile,
    });
  }

  beforeAll(async () => {
    server = await startWithPlugins();
    api = adminApi(server.url, server.apiKey);
    realm = uniqueName("plug");
    expect((await api.post("/admin/realms", { name: realm, eventsEnabled: true, adminEventsEnabled: true })).status).toBe(201);
    const app = await api.post(`/admin/realms/${realm}/clients`, { clientId: "app", grantTypes: ["password"] });
    expect(app.status).toBe(201);
    secret = app.body.secret;
    scopeId = (await api.post(`/admin/realms/${realm}/client-scopes`, { name: "plugin-claims" })).body.id;
    for (const body of [
      { name: "example", mapperType: "plugin:example", config: { prefix: "corp" } },
      ...(embedded ? [{ name: "throws", mapperType: "plugin:throws", config: {} }, { name: "hangs", mapperType: "plugin:hangs", config: {} }] : []),
      { name: "after", mapperType: "oidc-hardcoded-claim-mapper", config: { "claim.name": "after_plugins", "claim.value": "kept" } },
    ]) expect((await api.post(mappers(), body)).status).toBe(201);
    expect((await api.post(`/admin/realms/${realm}/clients/app/default-client-scopes`, { clientScopeId: scopeId })).status).toBe(200);
    const user = await api.post(`/admin/realms/${realm}/users`, { username: "ines", email: "ines@example.com", password: PW, attributes: { department: ["sales"] } });
    expect(user.status).toBe(201);
    if (embedded) {
      // "web" signs users in with a code, and has a service account; its own scope holds the session plugin's mapper.
      const web = await api.post(`/admin/realms/${realm}/clients`, { clientId: "web", redirectUris: [CB], grantTypes: ["authorization_code", "refresh_token", "client_credentials"] });
      expect(web.status).toBe(201);
      webSecret = web.body.secret;
      const scope = (await api.post(`/admin/realms/${realm}/client-scopes`, { name: "session-claims" })).body.id as string;
      expect((await api.post(`/admin/realms/${realm}/client-scopes/${scope}/protocol-mappers`, { name: "login", mapperType: "plugin:session", config: {} })).status).toBe(201);
      expect((await api.post(`/admin/realms/${realm}/clients/web/default-client-scopes`, { clientScopeId: scope })).status).toBe(200);
    }
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
    expectResponsesDocumented(recorded);
  });

  it("puts the example mapper's claim in the ID token, the access token and userinfo; failing mappers' claims are left out", async () => {
    const config = await oidc.discovery(new URL(issuer()), "app", secret, undefined, { execute: [oidc.allowInsecureRequests] });
    const tokens = await oidc.genericGrantRequest(config, "password", { username: "ines", password: PW, scope: "openid" });
    const id = tokens.claims()!;
    const access = decodeJwt(tokens.access_token);
    const userinfo = await oidc.fetchUserInfo(config, tokens.access_token, id.sub);
    for (const claims of [id, access, userinfo] as Array<Record<string, unknown>>) {
      expect([claims.tessera_example, claims.after_plugins, claims.throws_claim, claims.hangs_claim]).toEqual(["corp:app:sales", "kept", undefined, undefined]);
    }
  });

  // The session plugin is loaded only by the embedded server (the cluster loads the example alone).
  if (embedded) {
    it("tells a mapper the token's session: the ID token's sid and auth_time, kept by a refresh; none for client_credentials", async () => {
      const config = await oidc.discovery(new URL(issuer()), "web", webSecret, undefined, { execute: [oidc.allowInsecureRequests] });
      const verifier = oidc.randomPKCECodeVerifier();
      const state = oidc.randomState();
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: CB, scope: "openid", state, code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: "S256",
      });
      const b = new BrowserSession(server.url);
      const before = Math.floor(Date.now() / 1000);
      const done = await b.submit(await b.get(url.href), { username: "ines", password: PW });
      expect(done.status).toBe(302);
      const tokens = await oidc.authorizationCodeGrant(config, new URL(done.location), { pkceCodeVerifier: verifier, expectedState: state });
      const id = tokens.claims()!;
      // The SSO session the login page started (session_state names it too), and its login's second.
      expect(tokens.session_state).toMatch(/^[0-9a-f-]{36}$/);
      expect(id.sid).toBe(tokens.session_state);
      expect(id.auth_time).toBeGreaterThanOrEqual(before);
      expect(id.auth_time).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
      const login = { sid: id.sid, auth_time: id.auth_time };
      const userinfo = await oidc.fetchUserInfo(config, tokens.access_token, id.sub);
      expect([id.login, decodeJwt(tokens.access_token).login, userinfo.login]).toStrictEqual([login, login, login]);

      const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
      const again = refreshed.claims()!;
      expect([again.sid, again.auth_time, again.login, decodeJwt(refreshed.access_token).login]).toStrictEqual([login.sid, login.auth_time, login, login]);

      const service = await oidc.clientCredentialsGrant(config);
      const claims = decodeJwt(service.access_token);
      expect([claims.sid, claims.login]).toStrictEqual([undefined, { sid: "" }]);
    });
  }

  it("accepts plugin mapper types only for loaded plugins, and only their settings", async () => {
    const unknown = await api.post(mappers(), { name: "x", mapperType: "plugin:missing", config: {} });
    expect([unknown.status, unknown.body.field]).toEqual([400, "mapperType"]);
    expect(unknown.body.message).toContain(embedded ? "oidc-organization-membership-mapper, plugin:example, plugin:throws, plugin:hangs, plugin:session" : "oidc-organization-membership-mapper, plugin:example");
    const bad = await api.post(mappers(), { name: "y", mapperType: "plugin:example", config: { colour: "red" } });
    expect([bad.status, bad.body]).toEqual([400, { error: "invalid_request", message: "config.colour is not a setting of plugin:example", field: "config.colour" }]);
    const reserved = await api.post(mappers(), { name: "z", mapperType: "plugin:example", config: { "claim.name": "iss" } });
    expect([reserved.status, reserved.body.field]).toEqual([400, "config.claim.name"]);
    const renamed = await api.post(mappers(), { name: "renamed", mapperType: "plugin:example", config: { "claim.name": "org.example", "id.token.claim": "false" } });
    expect([renamed.status, renamed.body.config]).toEqual([201, {
      "claim.name": "org.example", "id.token.claim": "false", "access.token.claim": "true", "userinfo.token.claim": "true", "introspection.token.claim": "true",
    }]);
    expect((await api.del(`${mappers()}/${renamed.body.id}`)).status).toBe(204);
  });

  it("hands the listener the LOGIN event and admin events, without the client secret", async () => {
    // The first test's password grant is the LOGIN; the setup's writes are the admin events.
    const seen = await eventually(async () => events().filter((e) => e.realm === realm), (list) =>
      list.some((e) => e.kind === "login" && e.type === "LOGIN") && list.some((e) => e.kind === "admin" && e.resourceType === "CLIENT"), 20_000);
    const login = seen.find((e) => e.kind === "login" && e.type === "LOGIN")!;
    expect([login.clientId, typeof login.userId]).toEqual(["app", "string"]);
    const client = seen.find((e) => e.kind === "admin" && e.resourceType === "CLIENT")!;
    expect(client.operationType).toBe("CREATE");
    expect(client.resourcePath).toMatch(/^clients\/[0-9a-f-]{36}$/);
    expect(JSON.parse(client.representation as string).clientId).toBe("app");
    expect(JSON.stringify(seen)).not.toContain(secret);
  });

  it("exports plugin mappers and imports them back while the plugin is loaded", async () => {
    const doc = await api.get(`/admin/realms/${realm}/export`);
    expect(doc.status).toBe(200);
    const scope = (doc.body.clientScopes as Array<{ name: string; protocolMappers: Array<{ mapperType: string; config: Record<string, string> }> }>)
      .find((sc) => sc.name === "plugin-claims")!;
    expect(scope.protocolMappers.find((m) => m.mapperType === "plugin:example")!.config.prefix).toBe("corp");
    const imported = await api.post(`/admin/realms/import?overwrite=true`, doc.body);
    expect([imported.status, imported.body.importReport]).toEqual([201, expect.any(Array)]);
    const scopes = (await api.get(`/admin/realms/${realm}/client-scopes`)).body as Array<{ name: string; protocolMappers: Array<{ mapperType: string }> }>;
    expect(scopes.find((sc) => sc.name === "plugin-claims")!.protocolMappers.map((m) => m.mapperType)).toContain("plugin:example");
    // A document naming a plugin that is not loaded is refused, naming the mapper's path.
    scope.protocolMappers[0]!.mapperType = "plugin:absent";
    const refused = await api.post(`/admin/realms/import?overwrite=true`, doc.body);
    const at = (doc.body.clientScopes as Array<{ name: string }>).findIndex((sc) => sc.name === "plugin-claims");
    expect([refused.status, refused.body.error]).toEqual([400, "invalid_document"]);
    expect(refused.body.problems).toEqual([{
      path: `$.clientScopes[${at}].protocolMappers[0].mapperType`,
      message: expect.stringMatching(/^mapperType must be one of oidc-usermodel-attribute-mapper, .*, plugin:example(, plugin:throws, plugin:hangs, plugin:session)?$/),
    }]);
  });

  // The gateway's /metrics holds the services' counters only in embedded mode (one process).
  if (embedded) {
    it("counts each plugin's calls by outcome in /metrics, the throwing listener's included", async () => {
      const metrics = await (await fetch(`${server.url}/metrics`)).text();
      expect(metrics).toMatch(/^tessera_plugin_calls_total\{plugin="example",kind="protocol-mapper",outcome="ok"\} [1-9]/m);
      expect(metrics).toMatch(/^tessera_plugin_calls_total\{plugin="throws",kind="protocol-mapper",outcome="error"\} [1-9]/m);
      expect(metrics).toMatch(/^tessera_plugin_calls_total\{plugin="hangs",kind="protocol-mapper",outcome="timeout"\} [1-9]/m);
      expect(metrics).toMatch(/^tessera_plugin_calls_total\{plugin="throws",kind="event-listener",outcome="error"\} [1-9]/m);
      expect(metrics).toMatch(/^tessera_plugin_calls_total\{plugin="example",kind="event-listener",outcome="ok"\} [1-9]/m);
    });
  }
});

describe("plugins: a bad plugin stops the boot", () => {
  const notFound = (cwd: string) =>
    `tessera: configuration error: TESSERA_PLUGINS: plugin "tessera-plugin-nope" cannot be found from ${cwd} (install it there, or set TESSERA_PLUGIN_DIR to the directory holding its node_modules)\n`;

  it("exits 78 naming TESSERA_PLUGINS and the plugin (embedded)", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "tessera-plugins-boot-"));
    try {
      const run = await runToExit("gateway/src/main-embedded.js", {
        TESSERA_PORT: String(await freePort()), TESSERA_DATA_DIR: dataDir, TESSERA_PLUGINS: "tessera-plugin-nope", TESSERA_PLUGIN_DIR: dataDir,
      });
      expect([run.code, run.stderr]).toEqual([78, notFound(dataDir)]);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("exits 78 the same way in a cluster-mode service process, before it opens its store or bus", async () => {
    const dir = mkdtempSync(join(tmpdir(), "tessera-plugins-boot-"));
    try {
      const run = await runToExit("services/audit/src/main.js", {
        TESSERA_AUDIT_URL: `http://127.0.0.1:${await freePort()}`, TESSERA_MASTER_KEY: generateMasterKey(),
        TESSERA_NATS_URL: "nats://127.0.0.1:1", TESSERA_STORE: "mongodb", TESSERA_MONGODB_URI: "mongodb://127.0.0.1:1",
        TESSERA_PLUGINS: "tessera-plugin-nope", TESSERA_PLUGIN_DIR: dir,
      });
      expect([run.code, run.stderr]).toEqual([78, notFound(dir)]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
