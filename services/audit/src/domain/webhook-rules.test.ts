import { checkCreate, checkGracePeriod, checkUpdate } from "./webhook-rules.js";
import { adminEventType, typeMatches } from "./webhook.js";
import { backoffDelay } from "./retry-schedule.js";

const open = { allowLoopback: true };
const closed = { allowLoopback: false };
const reasonOf = (f: () => void): string => {
  try {
    f();
    return "accepted";
  } catch (e) {
    return `${(e as { field?: string }).field}: ${(e as Error).message}`;
  }
};

describe("webhook event type patterns", () => {
  it("matches exact types and '*' wildcards", () => {
    const userCreate = adminEventType("USER", "CREATE");
    expect(userCreate).toBe("admin:USER:CREATE");
    expect(typeMatches("LOGIN", "LOGIN")).toBe(true);
    expect(typeMatches("LOGIN", "LOGIN_ERROR")).toBe(false);
    expect(typeMatches("admin:*", userCreate)).toBe(true);
    expect(typeMatches("admin:*", "LOGIN")).toBe(false);
    expect(typeMatches("admin:USER:*", userCreate)).toBe(true);
    expect(typeMatches("admin:CLIENT:*", userCreate)).toBe(false);
    expect(typeMatches("admin:*:DELETE", "admin:USER:DELETE")).toBe(true);
    expect(typeMatches("admin:*:DELETE", userCreate)).toBe(false);
    expect(typeMatches("*_ERROR", "LOGIN_ERROR")).toBe(true);
    expect(typeMatches("*_ERROR", "LOGIN")).toBe(false);
    expect(typeMatches("*", "LOGOUT")).toBe(true);
    // The head and tail may not overlap: "A*A" needs two A's.
    expect(typeMatches("A*A", "A")).toBe(false);
  });
});

describe("webhook validation", () => {
  const ok = { url: "https://hooks.example.com/in", eventTypes: ["LOGIN"] };
  it("requires url and eventTypes on create", () => {
    expect(reasonOf(() => checkCreate({ eventTypes: ["LOGIN"] }, open))).toBe("url: url is required");
    expect(reasonOf(() => checkCreate({ url: ok.url }, open))).toBe("eventTypes: eventTypes is required");
    expect(reasonOf(() => checkCreate(ok, closed))).toBe("accepted");
  });

  it("refuses private, link-local and (unless allowed) loopback and plain http URLs", () => {
    expect(reasonOf(() => checkUpdate({ url: "https://10.1.2.3/x" }, open))).toBe("url: url must not point to a private, link-local or reserved address");
    expect(reasonOf(() => checkUpdate({ url: "https://169.254.169.254/latest" }, open))).toMatch(/^url: .*link-local/);
    expect(reasonOf(() => checkUpdate({ url: "http://127.0.0.1:9000/x" }, closed))).toMatch(/^url: .*loopback/);
    expect(reasonOf(() => checkUpdate({ url: "http://127.0.0.1:9000/x" }, open))).toBe("accepted");
    expect(reasonOf(() => checkUpdate({ url: "http://hooks.example.com/x" }, open))).toMatch(/^url: .*https/);
  });

  it("refuses bad event types", () => {
    expect(reasonOf(() => checkUpdate({ eventTypes: [] }, open))).toBe("eventTypes: eventTypes must name at least one event type");
    expect(reasonOf(() => checkUpdate({ eventTypes: ["LOGIN", "bad type"] }, open))).toMatch(/^eventTypes: event type "bad type"/);
  });

  it("refuses hop-by-hop, framing and signature headers, and header injection", () => {
    for (const name of ["Connection", "Transfer-Encoding", "Host", "Content-Length", "webhook-signature", "Webhook-Id", "TE"]) {
      expect(reasonOf(() => checkUpdate({ headers: { [name]: "x" } }, open))).toBe(`headers: header "${name}" is set by Tessera and cannot be configured`);
    }
    expect(reasonOf(() => checkUpdate({ headers: { "X-A": "1\r\nX-B: 2" } }, open))).toMatch(/without line breaks/);
    expect(reasonOf(() => checkUpdate({ headers: { "X A": "1" } }, open))).toMatch(/not a valid field name/);
    expect(reasonOf(() => checkUpdate({ headers: { "X-A": "1", "x-a": "2" } }, open))).toMatch(/given twice/);
    expect(reasonOf(() => checkUpdate({ headers: { Authorization: "Bearer abc" } }, open))).toBe("accepted");
  });
});

describe("backoff", () => {
  it("doubles from the base, caps at the maximum, and jitters within the upper half", () => {
    const p = { baseMs: 2_000, maxMs: 3_600_000, windowMs: 86_400_000 };
    expect([1, 2, 3, 12, 30].map((n) => backoffDelay(p, n, () => 0))).toEqual([1_000, 2_000, 4_000, 1_800_000, 1_800_000]);
    expect([1, 2, 3].map((n) => backoffDelay(p, n, () => 0.999999))).toEqual([2_000, 4_000, 8_000]);
  });
});

describe("webhook secret grace period", () => {
  const msg = "secretGracePeriodSeconds: secretGracePeriodSeconds must be a whole number of seconds from 0 to 604800";
  it("takes whole seconds from 0 (the old secret stops at once) to a week, and names the field otherwise", () => {
    for (const ok of [0, 1, 86_400, 604_800]) expect(reasonOf(() => checkUpdate({ secretGracePeriodSeconds: ok }, open))).toBe("accepted");
    for (const bad of [-1, 604_801, 1.5, Number.NaN]) expect(reasonOf(() => checkUpdate({ secretGracePeriodSeconds: bad }, open))).toBe(msg);
    expect(reasonOf(() => checkGracePeriod("gracePeriodSeconds", 604_801))).toBe("gracePeriodSeconds: gracePeriodSeconds must be a whole number of seconds from 0 to 604800");
  });
});
