import { adminApi, http, uniqueName } from "./support/http.js";
import { startEmbeddedServer, type TestServer } from "./support/embedded-server.js";

/**
 * Brute-force protection of the admin login (POST /admin/auth/login), per account and per
 * address. Embedded only, on a server of its own: its short lockout and the addresses it locks
 * must not reach other files' admin logins on the shared cluster. The addresses are X-Forwarded-For
 * values, honoured under TESSERA_TRUST_PROXY=true, as behind a load balancer.
 */
describe("admin login lockout (embedded)", () => {
  const LOCKOUT = 3;
  let server: TestServer;

  beforeAll(async () => {
    server = await startEmbeddedServer("admin-lockout", {
      TESSERA_ADMIN_LOGIN_MAX_FAILURES: "10",
      TESSERA_ADMIN_LOGIN_MAX_FAILURES_PER_ADDRESS: "30",
      TESSERA_ADMIN_LOGIN_LOCKOUT_SECONDS: String(LOCKOUT),
      TESSERA_TRUST_PROXY: "true",
    });
  }, 90_000);
  afterAll(async () => server?.stop());

  const login = (username: string, password: string, from: string) =>
    http("POST", `${server.url}/admin/auth/login`, { body: { username, password }, headers: { "X-Forwarded-For": from } });

  /** What a caller sees of an answer, the seconds to wait (which count down) left out. */
  const seen = (r: Awaited<ReturnType<typeof login>>) => ({
    status: r.status, body: JSON.stringify(r.body).replace(/\d+ seconds/, "N seconds"), retryAfter: r.headers.get("retry-after") !== null,
  });

  let adminAnswers: ReturnType<typeof seen>[] = [];

  it("refuses the right password after 30 wrong ones, from any address, until the lockout passes", async () => {
    const answers = [];
    for (let i = 0; i < 30; i++) answers.push(await login(server.adminUsername, `wrong-${i}`, "198.51.100.1"));
    expect(answers.map((a) => a.status)).toEqual([...Array(10).fill(401), ...Array(20).fill(429)]);
    expect(answers[0]!.body).toEqual({ error: "invalid_credentials", message: "invalid username or password" });
    const last = answers[29]!;
    expect(last.body).toEqual({ error: "too_many_requests", message: expect.stringMatching(/^too many failed logins; try again in [1-3] seconds$/) });
    expect(Number(last.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(Number(last.headers.get("retry-after"))).toBeLessThanOrEqual(LOCKOUT);
    expect(last.headers.get("cache-control")).toBe("no-store");
    adminAnswers = answers.map(seen);

    // The account is locked, not only the address; the right password is refused without a token.
    for (const from of ["198.51.100.1", "198.51.100.2"]) {
      const right = await login(server.adminUsername, server.adminPassword, from);
      expect(right.status).toBe(429);
      expect(right.body.accessToken).toBeUndefined();
    }
    // The API key is not a login: the Admin API stays reachable to the operator.
    expect((await adminApi(server.url, server.apiKey).get("/admin/realms")).status).toBe(200);

    await new Promise((r) => setTimeout(r, LOCKOUT * 1000 + 500));
    const after = await login(server.adminUsername, server.adminPassword, "198.51.100.2");
    expect(after.status).toBe(200);
    expect(after.body.tokenType).toBe("Bearer");
  }, 60_000);

  it("answers an account that does not exist exactly as one that does (no enumeration)", async () => {
    const ghost = uniqueName("ghost");
    const answers = [];
    for (let i = 0; i < 30; i++) answers.push(seen(await login(ghost, `wrong-${i}`, "198.51.100.3")));
    expect(answers).toEqual(adminAnswers);
  }, 60_000);

  it("locks an address that tries many accounts, leaving other addresses alone", async () => {
    const from = "198.51.100.9";
    const statuses = [];
    // Three guesses at each of ten names: under the per-account limit, 30 from one address.
    for (let i = 0; i < 30; i++) statuses.push((await login(`user-${i % 10}`, `wrong-${i}`, from)).status);
    expect(statuses).toEqual(Array(30).fill(401));
    expect((await login(server.adminUsername, server.adminPassword, from)).status).toBe(429);
    expect((await login(server.adminUsername, server.adminPassword, "198.51.100.10")).status).toBe(200);
  }, 60_000);

  it("does not count successful logins against the address", async () => {
    const from = "198.51.100.20";
    for (let i = 0; i < 40; i++) expect((await login(server.adminUsername, server.adminPassword, from)).status).toBe(200);
  }, 60_000);
});
