import type { DeviceCodeRepository } from "../store/device-code-repository.js";
import type { BrowserFlow } from "./browser-flow.js";
import type { FlowReply } from "./flow-reply.js";
import { TOO_MANY_USER_CODES, USER_CODE_FAILURES } from "./device-verification.js";
import { buildFlowWorld, ctx, page, type FlowWorld } from "./flow-test-kit.js";

/**
 * The device verification page's bound on failed user-code lookups (RFC 8628 section 5.1), at
 * its defaults, on the real flow with a manual clock. The gateway's rendering (429, Retry-After):
 * test/e2e/oidc-device-verification.e2e.test.ts.
 */
describe("device verification: failed user-code lookups per realm and IP", () => {
  let now = Date.parse("2026-11-22T10:00:00Z");
  const clock = { now: () => now };
  let world: FlowWorld;
  let flow: BrowserFlow;
  let devices: DeviceCodeRepository;
  let realmId = "";
  const INVALID = "Invalid or expired code. Please check the code and try again.";
  const WRONG = ["BCDFGHJK", "CDFGHJKL", "DFGHJKLM", "FGHJKLMN", "GHJKLMNP", "HJKLMNPQ", "JKLMNPQR", "KLMNPQRS", "LMNPQRST", "MNPQRSTV", "NPQRSTVW"];

  beforeAll(async () => {
    world = await buildFlowWorld(clock);
    ({ flow, devices } = world);
    realmId = (await world.realms.createRealm({ realm: { name: "acme" } })).realm!.id;
    await world.realms.createRealm({ realm: { name: "other" } });
    await world.clients.createClient({ realm: "acme", client: {
      clientId: "tv", clientType: "PUBLIC", redirectUris: [], grantTypes: ["urn:ietf:params:oauth:grant-type:device_code"], grantTypesPresent: true,
    } });
    await devices.insert({
      _id: "dc-live", realmId, realmName: "acme", clientId: "tv", userCode: "WDJBMJHT", scope: "openid",
      status: "pending", interval: 5, lastPolledAt: 0, createdAt: now, expiresAt: now + 3_600_000,
    });
    await devices.insert({
      _id: "dc-expired", realmId, realmName: "acme", clientId: "tv", userCode: "XZXZXZXZ", scope: "openid",
      status: "pending", interval: 5, lastPolledAt: 0, createdAt: now - 700_000, expiresAt: now - 100_000,
    });
  }, 60_000);
  afterAll(async () => world.close());

  const tooMany = (r: FlowReply) => {
    if (r.outcome.kind !== "error") throw new Error(`expected an error page, got ${JSON.stringify(r.outcome)}`);
    return r.outcome;
  };
  const from = (ipAddress: string, realm = "acme") => ctx({ ipAddress, realm });

  it("is 10 failures a minute by default", () => {
    expect(USER_CODE_FAILURES).toEqual({ limit: 10, windowMs: 60_000 });
  });

  it("refuses an IP after 10 failed lookups, its right code too, with 429 and Retry-After; other IPs and realms are unaffected; the window frees it", async () => {
    const ip = "198.51.100.7";
    // Right codes do not count: a user may look their code up again and again.
    for (let i = 0; i < 12; i++) expect(page(await flow.device.begin(from(ip), "wdjb-mjht"))).toMatchObject({ step: "login", userCode: "WDJB-MJHT" });
    // An expired code is a failure as an unknown one is: both are "Invalid or expired".
    expect(page(await flow.device.begin(from(ip), "XZXZ-XZXZ")).message).toBe(INVALID);
    now += 1_000;
    for (const code of WRONG.slice(0, 9)) expect(page(await flow.device.begin(from(ip), code)).message).toBe(INVALID);
    // The 11th lookup: refused before the store is asked, whatever the code.
    const refused = tooMany(await flow.device.begin(from(ip), WRONG[9]!));
    expect(refused).toEqual({ kind: "error", error: "too_many_requests", description: TOO_MANY_USER_CODES, status: 429, retryAfter: 59 });
    expect(tooMany(await flow.device.begin(from(ip), "WDJB-MJHT"))).toMatchObject({ status: 429, retryAfter: 59 });
    // The empty form looks nothing up and is still shown.
    expect(page(await flow.device.begin(from(ip), ""))).toEqual({ step: "device_enter_code" });
    // Another IP, and the same IP in another realm, count on their own.
    expect(page(await flow.device.begin(from("198.51.100.8"), "WDJB-MJHT"))).toMatchObject({ step: "login" });
    expect(page(await flow.device.begin(from(ip, "other"), WRONG[10]!)).message).toBe(INVALID);
    // The refused attempts did not count: once the first failure is a minute old, one more try.
    now += 58_500;
    expect(tooMany(await flow.device.begin(from(ip), "WDJB-MJHT"))).toMatchObject({ status: 429, retryAfter: 1 });
    now += 500;
    expect(page(await flow.device.begin(from(ip), "WDJB-MJHT"))).toMatchObject({ step: "login", userCode: "WDJB-MJHT" });
    // The nine failures of a second later are still in the window: one more failure fills it again.
    expect(page(await flow.device.begin(from(ip), WRONG[10]!)).message).toBe(INVALID);
    expect(tooMany(await flow.device.begin(from(ip), "WDJB-MJHT"))).toMatchObject({ status: 429, retryAfter: 1 });
    now += 60_000;
    expect(page(await flow.device.begin(from(ip), "WDJB-MJHT"))).toMatchObject({ step: "login" });
  });

  it("counts an IPv6 client by its /64: rotating through its addresses does not reset the bound", async () => {
    now += 600_000;
    // Ten failures from ten addresses of one /64.
    for (let i = 0; i < 10; i++) expect(page(await flow.device.begin(from(`2001:db8:1:2::${i + 1}`), WRONG[i]!)).message).toBe(INVALID);
    expect(tooMany(await flow.device.begin(from("2001:db8:1:2:ffff::99"), "WDJB-MJHT"))).toMatchObject({ status: 429 });
    // Another /64 counts on its own.
    expect(page(await flow.device.begin(from("2001:db8:1:3::1"), "WDJB-MJHT"))).toMatchObject({ step: "login" });
  });

  it("does not let concurrent guesses pass the bound together: each counts before its lookup ends", async () => {
    const replies = await Promise.all(Array.from({ length: 25 }, (_, i) => flow.device.begin(from("203.0.113.50"), `BBBB${String.fromCharCode(66 + (i % 20))}BBB`)));
    const kinds = replies.map((r) => (r.outcome.kind === "error" ? r.outcome.status : page(r).message));
    expect(kinds.filter((k) => k === INVALID)).toHaveLength(10);
    expect(kinds.filter((k) => k === 429)).toHaveLength(15);
  });
});
