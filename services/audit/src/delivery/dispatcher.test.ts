import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { pino } from "pino";
import { openStore } from "../../../kit/src/store/open-store.js";
import { createMetrics } from "../../../kit/src/metrics.js";
import { SecretBox, generateMasterKey } from "../../../kit/src/crypto/secret-box.js";
import type { Store } from "../../../kit/src/store/port.js";
import { generateSecret, previousSecretAad, secretAad, type WebhookRecord } from "../domain/webhook.js";
import { loginWebhookEvent } from "../domain/webhook-payload.js";
import { newDelivery } from "../events/webhook-fanout.js";
import { DeliveryRepository } from "../store/delivery-repository.js";
import { WebhookRepository } from "../store/webhook-repository.js";
import { Dispatcher, type DispatchSettings } from "./dispatcher.js";

/**
 * A Standard Webhooks verifier written from the specification (standardwebhooks.com, "Verifying
 * webhooks"), not from Tessera's signer: the signed content is `id.timestamp.body`, the key the
 * base64-decoded secret after `whsec_`, the header a space-separated list of `v1,<base64>`, and a
 * timestamp more than 5 minutes from now is refused.
 */
export function verifyStandardWebhook(secret: string, headers: IncomingHttpHeaders, body: string, nowSeconds: number): boolean {
  const id = headers["webhook-id"], ts = headers["webhook-timestamp"], sigs = headers["webhook-signature"];
  if (typeof id !== "string" || typeof ts !== "string" || typeof sigs !== "string") return false;
  if (!/^\d+$/.test(ts) || Math.abs(nowSeconds - Number(ts)) > 300) return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const expected = createHmac("sha256", key).update(`${id}.${ts}.${body}`).digest();
  return sigs.split(" ").some((s) => {
    const [version, mac] = s.split(",", 2);
    if (version !== "v1" || !mac) return false;
    const got = Buffer.from(mac, "base64");
    return got.length === expected.length && timingSafeEqual(got, expected);
  });
}

interface Received { headers: IncomingHttpHeaders; body: string }

describe("webhook dispatcher", () => {
  let now = Date.parse("2026-11-22T10:00:00Z");
  const clock = { now: () => now };
  let store: Store;
  let hooks: WebhookRepository;
  let deliveries: DeliveryRepository;
  let server: Server;
  let url = "";
  let answer = 500;
  let hang = false;
  const received: Received[] = [];
  const sentAs = (id: string) => received.filter((r) => r.headers["webhook-id"] === id);
  const secrets = new SecretBox(generateMasterKey());
  const secret = generateSecret();
  const settings: DispatchSettings = {
    retry: { baseMs: 1_000, maxMs: 8_000, windowMs: 60_000 }, timeoutMs: 2_000, queueSize: 10, concurrency: 2, pollMs: 1_000,
    outbound: { allowLoopback: true },
  };
  const logger = pino({ level: "silent" });
  // Half the delay fixed, half random: 0.5 makes each delay exactly 3/4 of the exponential step.
  const dispatcher = () => new Dispatcher(deliveries, hooks, secrets, clock, logger, createMetrics(), settings, () => 0.5);

  beforeAll(async () => {
    store = await openStore({ kind: "sqlite", path: ":memory:", clock });
    hooks = await WebhookRepository.open(store);
    deliveries = await DeliveryRepository.open(store);
    server = createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => { body += c.toString("utf8"); });
      req.on("end", () => {
        if (hang) return;
        received.push({ headers: req.headers, body });
        if (answer === 302) res.writeHead(302, { location: "http://169.254.169.254/" });
        else res.writeHead(answer);
        res.end();
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  });
  afterAll(async () => {
    await new Promise<void>((r) => server.close(() => r()));
    await store.close();
  });

  let seq = 0;
  async function setup(extra: (id: string) => Partial<WebhookRecord> = () => ({})): Promise<{ hook: WebhookRecord; deliveryId: string }> {
    const id = `wh-${++seq}`;
    const hook: WebhookRecord = {
      _id: id, realmId: "r1", realm: "acme", url, eventTypes: ["LOGIN"], enabled: true, headers: { "X-Tenant": "acme" },
      secretSealed: secrets.seal(secret, secretAad({ _id: id })), createdAt: now, updatedAt: now, ...extra(id),
    };
    await hooks.insert(hook);
    return { hook, deliveryId: await deliver(id) };
  }
  async function deliver(id: string): Promise<string> {
    ++seq;
    const event = loginWebhookEvent({
      _id: `ev-${seq}`, time: now, realm: "acme", type: "LOGIN", clientId: "app", userId: "u1", sessionId: "s1", ipAddress: "127.0.0.1",
      error: "", details: {}, expiresAt: now + 3_600_000,
    });
    const d = newDelivery(id, event, now);
    await deliveries.insertOnce(d);
    return d._id;
  }
  const run = async (d: Dispatcher) => {
    await d.tick();
    await d.settled();
  };

  it("signs each delivery in the Standard Webhooks scheme, with the custom headers", async () => {
    answer = 204;
    received.length = 0;
    const { deliveryId } = await setup();
    await run(dispatcher());
    expect(received).toHaveLength(1);
    const got = received[0]!;
    expect(got.headers["webhook-id"]).toBe(deliveryId);
    expect(got.headers["webhook-timestamp"]).toBe(String(now / 1000));
    expect(got.headers["content-type"]).toBe("application/json");
    expect(got.headers["x-tenant"]).toBe("acme");
    expect(verifyStandardWebhook(secret, got.headers, got.body, now / 1000)).toBe(true);
    expect(verifyStandardWebhook(secret, got.headers, got.body.replace("LOGIN", "LOGOUT"), now / 1000)).toBe(false);
    expect(verifyStandardWebhook(generateSecret(), got.headers, got.body, now / 1000)).toBe(false);
    expect(JSON.parse(got.body)).toEqual({
      type: "LOGIN", timestamp: new Date(now).toISOString(),
      data: { id: `ev-${seq}`, time: new Date(now).toISOString(), realm: "acme", type: "LOGIN", clientId: "app", userId: "u1", sessionId: "s1", ipAddress: "127.0.0.1", error: "", details: {} },
    });
    expect(await deliveries.get(deliveryId)).toMatchObject({ status: "delivered", attempts: 1, responseCode: 204, lastAttemptAt: now, lastError: "" });
    // Kept 7 days once delivered, then gone from the store.
    const saved = now;
    now += 7 * 86_400_000 - 1;
    expect(await deliveries.get(deliveryId)).not.toBeNull();
    now += 1;
    expect(await deliveries.get(deliveryId)).toBeNull();
    now = saved;
  });

  it("signs with the new and the rotated-out secret during the grace period, then with the new one only", async () => {
    answer = 204;
    received.length = 0;
    const old = generateSecret();
    const start = now;
    const { hook, deliveryId } = await setup((id) => ({
      previousSecretSealed: secrets.seal(old, previousSecretAad({ _id: id })), previousSecretExpiresAt: start + 60_000,
    }));
    await run(dispatcher());
    const [during] = sentAs(deliveryId);
    // Standard Webhooks' multiple signatures: space-delimited, the new one first.
    expect(String(during!.headers["webhook-signature"]).split(" ").map((s) => s.split(",")[0])).toEqual(["v1", "v1"]);
    expect(verifyStandardWebhook(secret, during!.headers, during!.body, now / 1000)).toBe(true);
    expect(verifyStandardWebhook(old, during!.headers, during!.body, now / 1000)).toBe(true);
    expect(verifyStandardWebhook(generateSecret(), during!.headers, during!.body, now / 1000)).toBe(false);
    // A sealed previous secret cannot stand in for the current one (its own binding).
    expect(() => secrets.open(hook.previousSecretSealed!, secretAad(hook))).toThrow();
    // The last millisecond of the grace period still signs with both; its end with the new one only.
    now = start + 59_999;
    const last = await deliver(hook._id);
    await run(dispatcher());
    expect(verifyStandardWebhook(old, sentAs(last)[0]!.headers, sentAs(last)[0]!.body, now / 1000)).toBe(true);
    now = start + 60_000;
    const after = await deliver(hook._id);
    await run(dispatcher());
    const [got] = sentAs(after);
    expect(String(got!.headers["webhook-signature"]).split(" ")).toHaveLength(1);
    expect(verifyStandardWebhook(secret, got!.headers, got!.body, now / 1000)).toBe(true);
    expect(verifyStandardWebhook(old, got!.headers, got!.body, now / 1000)).toBe(false);
    now = start;
  });

  it("retries with exponential backoff on the injected clock, then gives up as dead past the window", async () => {
    answer = 503;
    received.length = 0;
    const start = now;
    const { deliveryId } = await setup();
    const d = dispatcher();
    const delays: number[] = [];
    let last = now;
    for (let attempt = 1; ; attempt++) {
      await run(d);
      expect(received).toHaveLength(attempt);
      const rec = (await deliveries.get(deliveryId))!;
      expect(rec).toMatchObject({ attempts: attempt, responseCode: 503, lastError: "HTTP 503", lastAttemptAt: now });
      if (rec.status === "dead") break;
      expect(rec.status).toBe("failed");
      delays.push(rec.nextAttemptAt - last);
      // Not a moment early: one ms before it is due, a tick sends nothing.
      now = rec.nextAttemptAt - 1;
      await run(d);
      expect(received).toHaveLength(attempt);
      now = last = rec.nextAttemptAt;
    }
    // 3/4 of 1 s, 2 s, 4 s, then 8 s (the cap) until the next would fall past 60 s from the first attempt.
    expect(delays).toEqual([750, 1500, 3000, ...Array(9).fill(6000)]);
    expect(now - start).toBe(59_250);
    // The ids and bodies of every attempt are the same: the receiver's idempotency key holds.
    expect(new Set(received.map((r) => r.headers["webhook-id"]))).toEqual(new Set([deliveryId]));
    expect(new Set(received.map((r) => r.body)).size).toBe(1);
  });

  it("does not follow a redirect: a 3xx is a failed attempt", async () => {
    answer = 302;
    received.length = 0;
    const { deliveryId } = await setup();
    await run(dispatcher());
    expect(received).toHaveLength(1);
    expect(await deliveries.get(deliveryId)).toMatchObject({ status: "failed", responseCode: 302, lastError: "HTTP 302" });
  });

  it("sends each delivery once across replicas, and takes over one whose replica died holding it", async () => {
    answer = 200;
    received.length = 0;
    const { deliveryId } = await setup();
    // A replica claimed it and died before it sent anything: its lease holds it for a while.
    expect(await deliveries.claim(deliveryId, now, 40_000, "dead-replica")).not.toBeNull();
    const a = dispatcher(), b = dispatcher();
    await Promise.all([run(a), run(b)]);
    expect(sentAs(deliveryId)).toHaveLength(0);
    now += 40_001;
    await Promise.all([run(a), run(b)]);
    expect(sentAs(deliveryId)).toHaveLength(1);
    expect(await deliveries.get(deliveryId)).toMatchObject({ status: "delivered", attempts: 1 });
    // The dead replica's late outcome, under its stale claim, changes nothing.
    expect(await deliveries.finish(deliveryId, "dead-replica", { status: "failed" })).toBe(false);
  });

  it("refuses a private address at send time too", async () => {
    answer = 200;
    received.length = 0;
    const { hook, deliveryId } = await setup();
    await store.collection<WebhookRecord>({ name: "webhooks" }).then((c) => c.update({ _id: hook._id }, { $set: { url: "https://10.0.0.7/hook" } }));
    await run(dispatcher());
    expect(sentAs(deliveryId)).toHaveLength(0);
    expect(await deliveries.get(deliveryId)).toMatchObject({ status: "failed", responseCode: 0 });
    expect((await deliveries.get(deliveryId))!.lastError).toMatch(/^refused/);
  });

  it("bounds each webhook's queue: what does not fit stays due in the store, and other webhooks go on", async () => {
    answer = 204;
    received.length = 0;
    const slow = await setup();
    const more = [await addDelivery(slow.hook._id), await addDelivery(slow.hook._id), await addDelivery(slow.hook._id)];
    const other = await setup();
    hang = true;
    const d = new Dispatcher(deliveries, hooks, secrets, clock, logger, createMetrics(), { ...settings, queueSize: 2, concurrency: 1, timeoutMs: 300 }, () => 0.5);
    await d.tick();
    const claimed = async (id: string) => ((await deliveries.get(id))!.leaseUntil > 0);
    // Two of the slow webhook's four are claimed (queued or in flight); the other webhook's one too.
    const slowIds = [slow.deliveryId, ...more];
    expect((await Promise.all(slowIds.map(claimed))).filter(Boolean)).toHaveLength(2);
    expect(await claimed(other.deliveryId)).toBe(true);
    hang = false;
    await d.settled();
    // The hung attempts timed out: failed, retried later; the two left out were never tried.
    const states = await Promise.all(slowIds.map(async (id) => (await deliveries.get(id))!.status));
    expect(states.filter((s) => s === "pending")).toHaveLength(2);
    expect(states.filter((s) => s === "failed").length + states.filter((s) => s === "delivered").length).toBe(2);
  });

  async function addDelivery(webhookId: string): Promise<string> {
    const e = loginWebhookEvent({
      _id: `ev-extra-${++seq}`, time: now, realm: "acme", type: "LOGIN", clientId: "app", userId: "u2", sessionId: "s2", ipAddress: "",
      error: "", details: {}, expiresAt: now + 3_600_000,
    });
    const d = newDelivery(webhookId, e, now);
    await deliveries.insertOnce(d);
    return d._id;
  }
});
