import { createServer } from "node:http";
import express, { type Request, type Response } from "express";
import { Code, ConnectError } from "@connectrpc/connect";
import type { RpcClients } from "../rpc-clients.js";
import { dropOnAdminWrite } from "../http/admin-write-drops.js";
import { LOGIN_OPTIONS_CACHE_MS, LoginOptions } from "./login-options.js";

describe("LoginOptions", () => {
  let now = 0;
  let providerCalls = 0;
  let organizationCalls = 0;
  let providers: Array<{ alias: string; displayName: string }> = [];
  let organizations = 0n;
  let down = false;
  const rpc = {
    brokerLogin: {
      listLoginProviders: async ({ realm }: { realm: string }) => {
        providerCalls++;
        if (down) throw new ConnectError("broker unreachable", Code.Unavailable);
        if (realm !== "acme") throw new ConnectError(`realm "${realm}" not found`, Code.NotFound);
        return { providers: providers.map((p) => ({ ...p })) };
      },
    },
    organizations: {
      countOrganizations: async () => {
        organizationCalls++;
        if (down) throw new ConnectError("directory unreachable", Code.Unavailable);
        return { count: organizations };
      },
    },
  } as unknown as RpcClients;

  beforeEach(() => {
    now = 0;
    providerCalls = 0;
    organizationCalls = 0;
    providers = [{ alias: "google", displayName: "Google" }];
    organizations = 0n;
    down = false;
  });

  it("asks the broker once per LOGIN_OPTIONS_CACHE_MS, and hands out a frozen list", async () => {
    const o = new LoginOptions(rpc, () => now);
    const first = await o.providers("acme");
    expect(first).toEqual([{ alias: "google", displayName: "Google" }]);
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first[0])).toBe(true);
    providers = [];
    now = LOGIN_OPTIONS_CACHE_MS - 1;
    expect(await o.providers("acme")).toEqual([{ alias: "google", displayName: "Google" }]);
    expect(providerCalls).toBe(1);
    now = LOGIN_OPTIONS_CACHE_MS;
    expect(await o.providers("acme")).toEqual([]);
    expect(providerCalls).toBe(2);
  });

  it("asks the directory whether the realm has organizations once per LOGIN_OPTIONS_CACHE_MS", async () => {
    const o = new LoginOptions(rpc, () => now);
    expect(await o.hasOrganizations("acme")).toBe(false);
    organizations = 1n;
    expect(await o.hasOrganizations("acme")).toBe(false);
    expect(organizationCalls).toBe(1);
    now = LOGIN_OPTIONS_CACHE_MS;
    expect(await o.hasOrganizations("acme")).toBe(true);
    expect(organizationCalls).toBe(2);
  });

  it("forgets one realm, or all, at once", async () => {
    const o = new LoginOptions(rpc, () => now);
    await o.providers("acme");
    await o.hasOrganizations("acme");
    providers.push({ alias: "github", displayName: "GitHub" });
    organizations = 2n;
    o.forget("other");
    expect((await o.providers("acme")).map((p) => p.alias)).toEqual(["google"]);
    o.forget("acme");
    expect((await o.providers("acme")).map((p) => p.alias)).toEqual(["google", "github"]);
    expect(await o.hasOrganizations("acme")).toBe(true);
    providers = [];
    o.forget();
    expect(await o.providers("acme")).toEqual([]);
    expect([providerCalls, organizationCalls]).toEqual([3, 2]);
  });

  it("caches no failure: the caller falls back, and the next page asks again", async () => {
    const o = new LoginOptions(rpc, () => now);
    down = true;
    await expect(o.providers("acme")).rejects.toThrow("broker unreachable");
    await expect(o.hasOrganizations("acme")).rejects.toThrow("directory unreachable");
    down = false;
    await expect(o.providers("nowhere")).rejects.toThrow('realm "nowhere" not found');
    expect(await o.providers("acme")).toEqual([{ alias: "google", displayName: "Google" }]);
    expect(await o.hasOrganizations("acme")).toBe(false);
    expect([providerCalls, organizationCalls]).toEqual([3, 2]);
  });
});

describe("dropOnAdminWrite", () => {
  async function requests(list: Array<[string, string, number]>): Promise<Array<string | undefined>> {
    const dropped: Array<string | undefined> = [];
    const app = express();
    app.use(dropOnAdminWrite((realm) => dropped.push(realm)));
    app.use((req: Request, res: Response) => res.status(Number(req.headers["x-status"])).end());
    const server = createServer(app);
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const { port } = server.address() as { port: number };
    try {
      for (const [method, path, status] of list) {
        const res = await fetch(`http://127.0.0.1:${port}${path}`, { method, headers: { "x-status": String(status) } });
        await res.arrayBuffer();
      }
      // `finish` fires after the answer is written: give it the turn.
      await new Promise((r) => setTimeout(r, 20));
    } finally {
      await new Promise((r) => server.close(r));
    }
    return dropped;
  }

  it("drops the realm a successful admin write names, decoded; every realm after a realm is created", async () => {
    expect(await requests([
      ["POST", "/admin/realms/acme/identity-provider/instances", 201],
      ["PUT", "/admin/realms/acme/identity-provider/instances/google", 204],
      ["DELETE", "/admin/realms/caf%C3%A9/organizations/o1", 204],
      ["POST", "/admin/realms/acme/partialImport", 200],
      ["POST", "/admin/realms", 201],
    ])).toEqual(["acme", "acme", "café", "acme", undefined]);
  });

  it("drops nothing for reads, refused writes, other paths, or a name that does not decode", async () => {
    expect(await requests([
      ["GET", "/admin/realms/acme/identity-provider/instances", 200],
      ["HEAD", "/admin/realms/acme", 200],
      ["POST", "/admin/realms/acme/identity-provider/instances", 400],
      ["DELETE", "/admin/realms/acme", 404],
      ["POST", "/realms/acme/protocol/openid-connect/token", 200],
      ["POST", "/admin/realmsx", 201],
      ["PUT", "/admin/realms/%E0%A4%A/organizations/o1", 204],
    ])).toEqual([]);
  });
});
