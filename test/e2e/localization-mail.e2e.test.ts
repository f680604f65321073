import { adminApi, uniqueName } from "./support/http.js";
import { startEmbeddedServer, type TestServer } from "./support/embedded-server.js";
import { startSmtpSink } from "./support/smtp-sink.js";

// Mails in the user's locale (the `locale` attribute when the realm supports it), else the
// realm's default locale, with smtp-server as the sink. Embedded; the cluster tier needs
// TESSERA_TEST_NATS_URL.
describe("localized mails (embedded)", () => {
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  let realm: string;

  beforeAll(async () => {
    server = await startEmbeddedServer("localization-mail");
    api = adminApi(server.url, server.apiKey);
    sink = await startSmtpSink();
    realm = uniqueName("i18n-mail");
    expect((await api.post("/admin/realms", {
      name: realm, displayName: "Shop", internationalizationEnabled: true, supportedLocales: ["en", "de"], defaultLocale: "de",
      smtpHost: "127.0.0.1", smtpPort: sink.port, smtpFrom: "id@example.com",
    })).status).toBe(201);
    expect((await api.post(`/admin/realms/${realm}/users`, { username: "alice", email: "alice@example.com", password: "correct-horse-1" })).status).toBe(201);
  }, 90_000);
  afterAll(async () => {
    await sink?.stop();
    await server?.stop();
  });

  it("mails in the user's locale, else the realm's default", async () => {
    const subject = (raw: string) => {
      const header = /^Subject: (.*(?:\r?\n[ \t].*)*)/m.exec(raw)?.[1] ?? "";
      return header.replace(/\r?\n[ \t]/g, " ").replace(/=\?UTF-8\?([QB])\?([^?]*)\?=\s*/gi, (_m, enc: string, text: string) =>
        enc.toUpperCase() === "B" ? Buffer.from(text, "base64").toString("utf8")
          : Buffer.from(text.replace(/_/g, " ").replace(/=([0-9A-F]{2})/gi, (_h, h: string) => String.fromCharCode(parseInt(h, 16))), "latin1").toString("utf8")).trim();
    };
    const body = (raw: string) => Buffer.from(raw.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16))), "latin1").toString("utf8");
    const users = await api.get(`/admin/realms/${realm}/users?username=alice`);
    expect([users.status, users.body.users.length]).toEqual([200, 1]);
    expect((await api.put(`/admin/realms/${realm}/users/${users.body.users[0].id}/send-verification-email`)).status).toBe(200);
    const german = sink.mails.find((m) => m.to.includes("alice@example.com"))!;
    expect(subject(german.raw)).toBe("Bestätigen Sie Ihre E-Mail-Adresse für Shop");
    expect(body(german.raw)).toContain("Hallo alice,");
    expect(body(german.raw)).toContain("bitte bestätigen Sie Ihre E-Mail-Adresse, indem Sie diesen Link öffnen:");

    const bob = await api.post(`/admin/realms/${realm}/users`, { username: "bob", email: "bob@example.com", attributes: { locale: ["en"] } });
    expect(bob.status).toBe(201);
    expect((await api.put(`/admin/realms/${realm}/users/${bob.body.id}/send-verification-email`)).status).toBe(200);
    const english = sink.mails.find((m) => m.to.includes("bob@example.com"))!;
    expect(subject(english.raw)).toBe("Verify your email for Shop");
    expect(body(english.raw)).toContain("Hello bob,");
  });
});
