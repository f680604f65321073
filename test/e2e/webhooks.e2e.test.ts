import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmbeddedServer, type TestServer } from "./support/embedded-server.js";
import { adminApi, http, recordResponses, uniqueName } from "./support/http.js";
import { eventually } from "./support/targets.js";
import { verifyStandardWebhook, WebhookReceiver } from "./support/webhook-receiver.js";
import { expectResponsesDocumented } from "./support/openapi-check.js";

// Every response this file receives is checked against the OpenAPI document at its end.
const recorded = recordResponses();

// Webhooks against a loopback receiver, on an embedded server that keeps its data directory
// across a restart. Retries are fast here (200 ms base, 1 s cap, 200 ms polls) so an outage of
// a few seconds spans several attempts; the 24 h schedule itself is the dispatcher's unit test.
describe("webhooks", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "tessera-webhooks-"));
  const env = {
    TESSERA_DATA_DIR: dataDir, TESSERA_OUTBOUND_ALLOW_LOOPBACK: "true", TESSERA_WEBHOOK_RETRY_BASE_MS: "200",
    TESSERA_WEBHOOK_RETRY_MAX_MS: "1000", TESSERA_WEBHOOK_POLL_MS: "200", TESSERA_WEBHOOK_TIMEOUT_MS: "2000",
  };
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;
  let receiver: WebhookReceiver;
  let realm: string;
  let clientSecret: string;
  const PW = "Hook-Pass-1";
  const secrets: string[] = [];
  const logFiles: string[] = [];

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    server = await startEmbeddedServer("webhooks", env);
    logFiles.push(server.process!.logFile);
    api = adminApi(server.url, server.apiKey);
    realm = uniqueName("hooks");
    expect((await api.post("/admin/realms", { name: realm, eventsEnabled: true, adminEventsEnabled: true })).status).toBe(201);
    const c = await api.post(`/admin/realms/${realm}/clients`, { clientId: "web", grantTypes: ["password"] });
    expect(c.status).toBe(201);
    clientSecret = c.body.secret;
    expect((await api.post(`/admin/realms/${realm}/users`, { username: "ada", password: PW })).status).toBe(201);
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    await receiver?.down();
  }, 30_000);

  const base = () => `/admin/realms/${realm}/webhooks`;
  const login = async (password = PW) => http("POST", `${server.url}/realms/${realm}/protocol/openid-connect/token`, {
    form: { grant_type: "password", client_id: "web", client_secret: clientSecret, username: "ada", password },
  });
  const create = async (path: string, eventTypes: string[]) => {
    const res = await api.post(base(), { url: receiver.url(path), eventTypes });
    expect(res.status).toBe(201);
    secrets.push(res.body.secret);
    return res.body as { id: string; secret: string };
  };
  const deliveries = async (id: string, query = "") => (await api.get(`${base()}/${id}/deliveries${query}`)).body as Array<Record<string, any>>;

  it("creates, reads, updates and deletes a webhook; the secret is shown once only", async () => {
    const res = await api.post(base(), { url: receiver.url("/crud"), eventTypes: ["LOGIN", "admin:*"], headers: { "X-Tenant": "t1" } });
    expect(res.status).toBe(201);
    const { id, secret, createdAt, updatedAt, ...rest } = res.body;
    secrets.push(secret);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(secret.slice(6), "base64")).toHaveLength(24);
    expect(rest).toEqual({ url: receiver.url("/crud"), eventTypes: ["LOGIN", "admin:*"], enabled: true, headers: { "X-Tenant": "t1" }, secretGracePeriodSeconds: 86400 });
    expect(res.headers.get("location")).toBe(`/admin/realms/${realm}/webhooks/${id}`);
    expect(res.headers.get("cache-control")).toBe("no-store");

    const got = await api.get(`${base()}/${id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual({ id, createdAt, updatedAt, ...rest });
    expect(got.text).not.toContain(secret.slice(6));
    expect((await api.get(base())).body.map((w: { id: string }) => w.id)).toContain(id);

    const put = await api.put(`${base()}/${id}`, { enabled: false, eventTypes: ["LOGIN_ERROR"] });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ id, enabled: false, eventTypes: ["LOGIN_ERROR"], url: receiver.url("/crud"), headers: { "X-Tenant": "t1" } });
    expect((await api.put(`${base()}/${id}`, { secret: "whsec_AAAA" })).body).toEqual({ error: "unknown_field", message: "unknown or read-only field: secret", field: "secret" });

    expect((await api.del(`${base()}/${id}`)).status).toBe(204);
    expect(await api.get(`${base()}/${id}`)).toMatchObject({ status: 404, body: { error: "webhook_not_found", message: `webhook "${id}" not found` } });
    expect((await api.del(`${base()}/${id}`)).status).toBe(404);

    // Admin events for each change, with the webhook but never its secret.
    const events = await eventually(async () => (await api.get(`/admin/realms/${realm}/admin-events?resourceType=WEBHOOK`)).body as Array<Record<string, string>>, (e) => e.length >= 3);
    expect(events.map((e) => e.operationType)).toEqual(["DELETE", "UPDATE", "CREATE"]);
    expect(events.map((e) => e.resourcePath)).toEqual(Array(3).fill(`realms/${realm}/webhooks/${id}`));
    expect(JSON.parse(events[2]!.representation!)).toMatchObject({ id, url: receiver.url("/crud"), eventTypes: ["LOGIN", "admin:*"] });
    expect(JSON.stringify(events)).not.toContain(secret.slice(6));
  });

  it("refuses a private or link-local URL, a bad event type and reserved headers with 400", async () => {
    expect(await api.post(base(), { url: "https://10.0.0.8/hook", eventTypes: ["LOGIN"] })).toMatchObject({
      status: 400, body: { error: "invalid_request", message: "url must not point to a private, link-local or reserved address", field: "url" },
    });
    expect((await api.post(base(), { url: "https://169.254.169.254/latest/meta-data", eventTypes: ["LOGIN"] })).status).toBe(400);
    expect((await api.post(base(), { url: "https://[fd00::1]/hook", eventTypes: ["LOGIN"] })).status).toBe(400);
    expect((await api.post(base(), { url: receiver.url(), eventTypes: [] })).body).toMatchObject({ field: "eventTypes" });
    expect((await api.post(base(), { url: receiver.url(), eventTypes: ["LOGIN"], headers: { Connection: "close" } })).body).toEqual({
      error: "invalid_request", message: 'header "Connection" is set by Tessera and cannot be configured', field: "headers",
    });
    expect((await api.post(base(), { url: receiver.url(), eventTypes: ["LOGIN"], headers: { "webhook-signature": "v1,x" } })).status).toBe(400);
    expect((await api.post(`/admin/realms/no-such-realm-x/webhooks`, { url: receiver.url(), eventTypes: ["LOGIN"] })).status).toBe(404);
    expect((await api.get(base())).body.filter((w: { url: string }) => w.url.includes("10.0.0.8"))).toEqual([]);
  });

  it("delivers subscribed events signed in the Standard Webhooks scheme, and only those", async () => {
    const logins = await create("/logins", ["LOGIN", "LOGIN_ERROR"]);
    const admin = await create("/admin", ["admin:USER:*"]);
    expect((await login()).status).toBe(200);
    expect((await login("wrong-Pass-1")).status).toBe(400);
    expect((await api.post(`/admin/realms/${realm}/users`, { username: "grace", password: PW })).status).toBe(201);

    const got = await eventually(async () => receiver.on("/logins"), (r) => r.length >= 2);
    expect(got.map((r) => r.json.type).sort()).toEqual(["LOGIN", "LOGIN_ERROR"]);
    for (const r of got) {
      expect(verifyStandardWebhook(logins.secret, r.headers, r.body)).toBe(true);
      expect(verifyStandardWebhook(admin.secret, r.headers, r.body)).toBe(false);
      expect(r.json.data).toMatchObject({ realm, clientId: "web", type: r.json.type });
    }
    const adminGot = await eventually(async () => receiver.on("/admin"), (r) => r.length >= 1);
    expect(adminGot.map((r) => r.json.type)).toEqual(["admin:USER:CREATE"]);
    expect(verifyStandardWebhook(admin.secret, adminGot[0]!.headers, adminGot[0]!.body)).toBe(true);

    const list = await eventually(() => deliveries(logins.id), (d) => d.length === 2 && d.every((x) => x.status === "delivered"));
    expect(list.map((d) => ({ status: d.status, attempts: d.attempts, responseCode: d.responseCode }))).toEqual(Array(2).fill({ status: "delivered", attempts: 1, responseCode: 204 }));
    expect(new Set(list.map((d) => d.id))).toEqual(new Set(got.map((r) => r.headers["webhook-id"])));
    expect(await deliveries(logins.id, "?status=failed")).toEqual([]);
    expect((await deliveries(logins.id, "?max=1")).length).toBe(1);
    expect((await api.get(`${base()}/${logins.id}/deliveries?status=lost`)).body).toEqual({ error: "invalid_request", message: "status must be one of pending, delivered, failed, dead", field: "status" });
  }, 60_000);

  it("gets every event once a receiver that was down comes back, failed attempts listed meanwhile", async () => {
    const hook = await create("/outage", ["LOGIN"]);
    await receiver.down();
    for (let i = 0; i < 3; i++) expect((await login()).status).toBe(200);
    const failing = await eventually(() => deliveries(hook.id, "?status=failed"), (d) => d.length === 3 && d.every((x) => x.attempts >= 2));
    expect(failing.map((d) => [d.responseCode, typeof d.lastAttemptAt])).toEqual(Array(3).fill([0, "string"]));
    await receiver.up();
    const done = await eventually(() => deliveries(hook.id, "?status=delivered"), (d) => d.length === 3, 20_000);
    const got = receiver.on("/outage");
    expect(new Set(got.map((r) => r.json.data.id))).toEqual(new Set(done.map((d) => d.eventId)));
    expect(got).toHaveLength(3);
    for (const r of got) expect(verifyStandardWebhook(hook.secret, r.headers, r.body)).toBe(true);
    // The failures and the latency are on /metrics, and the queue is empty once all went out. The
    // outcome is stored before the attempt leaves its queue, so the gauge may lag the store a moment.
    const emptied = `tessera_webhook_queue_depth{webhook="${hook.id}"} 0`;
    const metrics = await eventually(async () => (await http("GET", `${server.url}/metrics`)).text, (t) => t.includes(emptied));
    expect(Number(/^tessera_webhook_attempts_total\{result="failed"\} (\d+)$/m.exec(metrics)?.[1])).toBeGreaterThanOrEqual(6);
    expect(Number(/^tessera_webhook_attempts_total\{result="delivered"\} (\d+)$/m.exec(metrics)?.[1])).toBeGreaterThanOrEqual(3);
    expect(metrics).toMatch(/^tessera_webhook_delivery_duration_seconds_count\{outcome="failed"\} \d+$/m);
    expect(metrics).toContain(emptied);
  }, 60_000);

  it("replays one delivery under its id, and a time range of stored events", async () => {
    const hook = await create("/replay", ["LOGIN"]);
    const from = new Date().toISOString();
    expect((await login()).status).toBe(200);
    const [first] = await eventually(() => deliveries(hook.id, "?status=delivered"), (d) => d.length === 1);
    const replay = await api.post(`${base()}/${hook.id}/deliveries/${first!.id}/replay`);
    expect(replay.status).toBe(202);
    expect(replay.body).toMatchObject({ id: first!.id, eventId: first!.eventId, status: "pending" });
    await eventually(async () => receiver.on("/replay"), (r) => r.length === 2);
    expect(receiver.on("/replay").map((r) => r.headers["webhook-id"])).toEqual([first!.id, first!.id]);
    expect((await api.post(`${base()}/${hook.id}/deliveries/msg_nope/replay`)).body).toMatchObject({ error: "delivery_not_found" });

    const range = await api.post(`${base()}/${hook.id}/replay?dateFrom=${encodeURIComponent(from)}`);
    expect(range).toMatchObject({ status: 202, body: { queued: 1 } });
    await eventually(async () => receiver.on("/replay"), (r) => r.length === 3);
    expect(receiver.on("/replay")[2]!.headers["webhook-id"]).toBe(first!.id);
    expect((await api.post(`${base()}/${hook.id}/replay`)).body).toEqual({ error: "invalid_request", message: "dateFrom is required", field: "dateFrom" });
  }, 60_000);

  // A short grace period (4 s): the receiver, a loopback HTTP server, verifies each delivery with
  // the Standard Webhooks verifier of this file and either secret while it runs, the new one after.
  it("rotates a secret with a grace period: both secrets sign until it ends, then only the new one", async () => {
    const made = await api.post(base(), { url: receiver.url("/rotate"), eventTypes: ["LOGIN"], secretGracePeriodSeconds: 4 });
    expect([made.status, made.body.secretGracePeriodSeconds]).toEqual([201, 4]);
    const old = made.body.secret as string;
    secrets.push(old);
    const before = Date.now();
    const rotated = await api.post(`${base()}/${made.body.id}/secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.headers.get("cache-control")).toBe("no-store");
    expect(Object.keys(rotated.body).sort()).toEqual(["previousSecretExpiresAt", "secret"]);
    const fresh = rotated.body.secret as string;
    secrets.push(fresh);
    expect(fresh).toMatch(/^whsec_/);
    expect(fresh).not.toBe(old);
    const until = Date.parse(rotated.body.previousSecretExpiresAt);
    expect(until).toBeGreaterThanOrEqual(before + 4000);
    expect(until).toBeLessThanOrEqual(Date.now() + 4000);
    const shown = await api.get(`${base()}/${made.body.id}`);
    expect(shown.body.previousSecretExpiresAt).toBe(rotated.body.previousSecretExpiresAt);
    for (const sec of [old, fresh]) expect(shown.text).not.toContain(sec.slice(6));

    expect((await login()).status).toBe(200);
    const [during] = await eventually(async () => receiver.on("/rotate"), (r) => r.length === 1);
    expect(String(during!.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    expect(verifyStandardWebhook(fresh, during!.headers, during!.body)).toBe(true);
    expect(verifyStandardWebhook(old, during!.headers, during!.body)).toBe(true);

    await new Promise((r) => setTimeout(r, Math.max(0, until - Date.now()) + 50));
    expect((await api.get(`${base()}/${made.body.id}`)).body.previousSecretExpiresAt).toBeUndefined();
    expect((await login()).status).toBe(200);
    const after = (await eventually(async () => receiver.on("/rotate"), (r) => r.length === 2))[1]!;
    expect(String(after.headers["webhook-signature"]).split(" ")).toHaveLength(1);
    expect(verifyStandardWebhook(fresh, after.headers, after.body)).toBe(true);
    expect(verifyStandardWebhook(old, after.headers, after.body)).toBe(false);

    // A leaked secret: `gracePeriodSeconds: 0` stops the old one at once.
    const revoked = await api.post(`${base()}/${made.body.id}/secret`, { gracePeriodSeconds: 0 });
    expect([revoked.status, revoked.body.previousSecretExpiresAt]).toEqual([200, null]);
    secrets.push(revoked.body.secret);
    expect((await login()).status).toBe(200);
    const next = (await eventually(async () => receiver.on("/rotate"), (r) => r.length === 3))[2]!;
    expect(verifyStandardWebhook(revoked.body.secret, next.headers, next.body)).toBe(true);
    expect(verifyStandardWebhook(fresh, next.headers, next.body)).toBe(false);

    // The rotation's admin event tells when the old secret stops, never a secret.
    const events = await eventually(async () => (await api.get(`/admin/realms/${realm}/admin-events?resourceType=WEBHOOK&operationType=ACTION`)).body as Array<Record<string, string>>,
      (e) => e.filter((x) => x.resourcePath === `realms/${realm}/webhooks/${made.body.id}/secret`).length === 2);
    const mine = events.filter((x) => x.resourcePath === `realms/${realm}/webhooks/${made.body.id}/secret`).map((e) => JSON.parse(e.representation!));
    expect(mine).toEqual([{ id: made.body.id, previousSecretExpiresAt: null }, { id: made.body.id, previousSecretExpiresAt: rotated.body.previousSecretExpiresAt }]);
    for (const sec of [old, fresh, revoked.body.secret]) expect(JSON.stringify(events)).not.toContain(sec.slice(6));
  }, 60_000);

  it("refuses a grace period outside 0 to 604800 seconds, naming the field", async () => {
    const hook = await create("/grace", ["LOGIN"]);
    const range = "must be a whole number of seconds from 0 to 604800";
    expect(await api.post(base(), { url: receiver.url("/grace"), eventTypes: ["LOGIN"], secretGracePeriodSeconds: 604801 })).toMatchObject({
      status: 400, body: { error: "invalid_request", message: `secretGracePeriodSeconds ${range}`, field: "secretGracePeriodSeconds" },
    });
    expect(await api.put(`${base()}/${hook.id}`, { secretGracePeriodSeconds: -1 })).toMatchObject({ status: 400, body: { field: "secretGracePeriodSeconds" } });
    expect(await api.put(`${base()}/${hook.id}`, { secretGracePeriodSeconds: "1d" })).toMatchObject({
      status: 400, body: { error: "invalid_field", message: "secretGracePeriodSeconds must be an integer", field: "secretGracePeriodSeconds" },
    });
    expect(await api.post(`${base()}/${hook.id}/secret`, { gracePeriodSeconds: 604801 })).toMatchObject({
      status: 400, body: { error: "invalid_request", message: `gracePeriodSeconds ${range}`, field: "gracePeriodSeconds" },
    });
    expect(await api.post(`${base()}/${hook.id}/secret`, { grace: 1 })).toMatchObject({ status: 400, body: { error: "unknown_field", field: "grace" } });
    const put = await api.put(`${base()}/${hook.id}`, { secretGracePeriodSeconds: 3600 });
    expect([put.status, put.body.secretGracePeriodSeconds]).toEqual([200, 3600]);
  });

  it("exports webhooks with the realm (secret and headers only with includeSecrets) and imports them", async () => {
    const name = uniqueName("hooks-x");
    expect((await api.post("/admin/realms", { name })).status).toBe(201);
    const made = await api.post(`/admin/realms/${name}/webhooks`, { url: receiver.url("/x"), eventTypes: ["admin:*"], headers: { Authorization: "Bearer t0k" } });
    expect(made.status).toBe(201);
    secrets.push(made.body.secret);
    // Rotated: the old secret is in its grace period, and travels with the new one (with includeSecrets).
    const rotated = await api.post(`/admin/realms/${name}/webhooks/${made.body.id}/secret`);
    secrets.push(rotated.body.secret);
    const plain = await api.get(`/admin/realms/${name}/export`);
    expect(plain.body.webhooks).toEqual([{ id: made.body.id, url: receiver.url("/x"), eventTypes: ["admin:*"], enabled: true, secretGracePeriodSeconds: 86400 }]);
    for (const sec of [made.body.secret, rotated.body.secret]) expect(plain.text).not.toContain(sec.slice(6));
    const full = await api.get(`/admin/realms/${name}/export?includeSecrets=true`);
    expect(full.body.webhooks).toEqual([{
      ...plain.body.webhooks[0], headers: { Authorization: "Bearer t0k" }, secret: rotated.body.secret,
      previousSecret: made.body.secret, previousSecretExpiresAt: rotated.body.previousSecretExpiresAt,
    }]);

    expect((await api.del(`/admin/realms/${name}`)).status).toBe(200);
    await eventually(async () => (await api.post("/admin/realms/import", full.body)).status, (s) => s === 201);
    const back = await api.get(`/admin/realms/${name}/webhooks/${made.body.id}`);
    expect(back.body).toMatchObject({ id: made.body.id, url: receiver.url("/x"), enabled: true, headers: { Authorization: "Bearer t0k" } });
    const again = (await api.get(`/admin/realms/${name}/export?includeSecrets=true`)).body.webhooks[0];
    expect([again.secret, again.previousSecret, again.previousSecretExpiresAt]).toEqual([rotated.body.secret, made.body.secret, rotated.body.previousSecretExpiresAt]);
    expect((await api.get(`/admin/realms/${name}/webhooks/${made.body.id}`)).body.previousSecretExpiresAt).toBe(rotated.body.previousSecretExpiresAt);

    // A document with a private URL is refused whole, naming the field; nothing changes.
    const bad = await api.post("/admin/realms/import?overwrite=true", { ...plain.body, webhooks: [{ ...plain.body.webhooks[0], url: "https://192.168.1.1/x" }] });
    expect(bad.status).toBe(400);
    expect(bad.body.problems).toEqual([{ path: "$.webhooks[0].url", message: "url must not point to a private, link-local or reserved address" }]);

    // Without the secret: a new one, imported disabled, and the report says so.
    const imported = await api.post("/admin/realms/import?overwrite=true", plain.body);
    expect(imported.status).toBe(201);
    expect(imported.body.importReport).toEqual([{ path: "$.webhooks[0].secret", message: "no secret in the document: a new one was generated and the webhook imported disabled; rotate its secret and enable it" }]);
    const disabled = await eventually(async () => api.get(`/admin/realms/${name}/webhooks/${made.body.id}`), (r) => r.status === 200);
    expect(disabled.body).toMatchObject({ id: made.body.id, enabled: false, headers: {} });
    const regenerated = (await api.get(`/admin/realms/${name}/export?includeSecrets=true`)).body.webhooks[0];
    expect([regenerated.secret === rotated.body.secret, regenerated.previousSecret]).toEqual([false, undefined]);
  }, 60_000);

  it("loses nothing when Tessera is killed in the middle of a retry loop and started again", async () => {
    const hook = await create("/restart", ["LOGIN"]);
    receiver.status = 503;
    expect((await login()).status).toBe(200);
    await eventually(() => deliveries(hook.id, "?status=failed"), (d) => d.length === 1 && d[0]!.attempts >= 2);
    // Killed in the middle of an attempt (the receiver holds it), so the store keeps its claim.
    receiver.hang = true;
    await eventually(async () => receiver.hung, (n) => n >= 1);
    await server.process!.stop("SIGKILL");
    receiver.hang = false;
    receiver.status = 204;
    server = await startEmbeddedServer("webhooks-restarted", { ...env, TESSERA_ADMIN_API_KEY: server.apiKey });
    logFiles.push(server.process!.logFile);
    api = adminApi(server.url, server.apiKey);
    const [done] = await eventually(() => deliveries(hook.id, "?status=delivered"), (d) => d.length === 1, 30_000);
    const got = receiver.on("/restart");
    expect(got.map((r) => r.json.data.id)).toEqual([done!.eventId]);
    expect(verifyStandardWebhook(hook.secret, got[0]!.headers, got[0]!.body)).toBe(true);
  }, 150_000);

  it("never writes a webhook secret to the logs", () => {
    expect(logFiles).toHaveLength(2);
    expect(secrets.length).toBeGreaterThanOrEqual(9);
    for (const file of logFiles) {
      const log = readFileSync(file, "utf8");
      for (const s of secrets) expect(log).not.toContain(s.slice(6));
    }
  });
});

describe("the responses of this file", () => {
  it("match the OpenAPI document (status, media type, body schema)", () => {
    expect(expectResponsesDocumented(recorded)).toBeGreaterThan(0);
  });
});
