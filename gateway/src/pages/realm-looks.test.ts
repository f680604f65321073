import { Code, ConnectError } from "@connectrpc/connect";
import type { RpcClients } from "../rpc-clients.js";
import { LOOK_CACHE_MS, RealmLooks } from "./realm-looks.js";
import { resolveTheme } from "./themes.js";

describe("RealmLooks", () => {
  let now = 0;
  let calls = 0;
  let realm: Record<string, unknown> | undefined;
  let down = false;
  const rpc = {
    realms: {
      getRealm: async () => {
        calls++;
        if (down) throw new ConnectError("directory unreachable", Code.Unavailable);
        if (!realm) throw new ConnectError("realm \"acme\" not found", Code.NotFound);
        return { realm: { ...realm } };
      },
    },
  } as unknown as RpcClients;
  const looks = () => new RealmLooks(rpc, () => now);

  beforeEach(() => {
    now = 0;
    calls = 0;
    down = false;
    realm = { name: "acme", displayName: "Acme", themeName: "tessera", theme: { primaryColor: "#112233" }, registrationAllowed: true, enabled: true,
      resetPasswordAllowed: true, passwordMinLength: 12, passwordRequireDigits: true, passwordHistoryCount: 2 };
  });

  it("reads a realm's look once per LOOK_CACHE_MS, frozen", async () => {
    const l = looks();
    const first = await l.get("acme");
    expect(first).toMatchObject({
      title: "Acme", registrationAllowed: true, resetPasswordAllowed: true, theme: { primaryColor: "#112233" },
      passwordRules: ["At least 12 characters", "A digit", "Not one of your last 2 passwords"],
    });
    expect(Object.isFrozen(first.theme)).toBe(true);
    realm!.displayName = "Acme 2";
    now = LOOK_CACHE_MS - 1;
    expect((await l.get("acme")).title).toBe("Acme");
    expect(calls).toBe(1);
    now = LOOK_CACHE_MS;
    expect((await l.get("acme")).title).toBe("Acme 2");
    expect(calls).toBe(2);
  });

  it("forgets a realm at once when its route changes it", async () => {
    const l = looks();
    await l.get("acme");
    realm!.theme = { primaryColor: "#445566" };
    l.forget("acme");
    expect((await l.get("acme")).theme.primaryColor).toBe("#445566");
  });

  it("gives an unknown realm the default look without caching it", async () => {
    const l = looks();
    realm = undefined;
    expect((await l.get("acme")).title).toBe("Tessera");
    realm = { name: "acme", displayName: "", themeName: "tessera", theme: {}, registrationAllowed: false };
    expect((await l.get("acme")).title).toBe("acme");
    expect(calls).toBe(2);
  });

  it("gives a name no realm can have the default look without asking the directory", async () => {
    const l = looks();
    for (const name of ["a;b", "<", "\n", "é", "Acme", "themes", "x".repeat(65)]) {
      expect(await l.get(name)).toEqual({ title: "Tessera", theme: resolveTheme("tessera", {}) });
    }
    expect(calls).toBe(0);
  });

  it("serves the pages of an enabled realm only, from the look's cache entry", async () => {
    const l = looks();
    expect(await l.isServed("acme")).toBe(true);
    expect((await l.get("acme")).title).toBe("Acme");
    expect(calls).toBe(1);
    realm!.enabled = false;
    l.forget("acme");
    expect(await l.isServed("acme")).toBe(false);
    // A disabled realm keeps its look on its 404 page, as the token service's page for it has.
    expect((await l.get("acme")).title).toBe("Acme");
    expect(calls).toBe(2);
    realm = undefined;
    l.forget("acme");
    expect(await l.isServed("acme")).toBe(false);
    expect(await l.isServed("a;b")).toBe(false);
    expect(calls).toBe(3);
  });

  it("does not call a realm unknown when the directory did not answer", async () => {
    const l = looks();
    down = true;
    await expect(l.isServed("acme")).rejects.toThrow("directory unreachable");
    expect(await l.get("acme")).toEqual({ title: "Tessera", theme: resolveTheme("tessera", {}) });
    down = false;
    expect(await l.isServed("acme")).toBe(true);
  });
});
