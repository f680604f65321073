import { Code, ConnectError } from "@connectrpc/connect";
import type { RpcClients } from "../rpc-clients.js";
import { ClientOrigins, corsHeaders, ORIGINS_CACHE_MS, resolveWebOrigins } from "./cors.js";

describe("CORS origins", () => {
  it("resolves + to the redirect URIs' http(s) origins and keeps listed origins and *", () => {
    const got = resolveWebOrigins(["+", "https://b.test", "*"], ["https://a.test:8443/cb?x=1", "http://a.test/cb", "com.example.app:/cb", "/relative"]);
    expect([...got].sort()).toEqual(["*", "http://a.test", "https://a.test:8443", "https://b.test"]);
    expect([...resolveWebOrigins([], ["https://a.test/cb"])]).toEqual([]);
  });

  it("echoes an allowed origin with credentials, and nothing for another", () => {
    expect(corsHeaders("https://a.test", new Set(["https://a.test"]))).toEqual({
      "Access-Control-Allow-Origin": "https://a.test", "Access-Control-Allow-Credentials": "true", Vary: "Origin",
    });
    expect(corsHeaders("https://x.test", new Set(["*"]))?.["Access-Control-Allow-Origin"]).toBe("https://x.test");
    expect(corsHeaders("https://x.test", new Set(["https://a.test"]))).toBeUndefined();
  });

  it("caches a client's origins for ORIGINS_CACHE_MS unless forgotten; an unknown client has none", async () => {
    let now = 0;
    let calls = 0;
    let webOrigins = ["https://a.test"];
    const rpc = { clients: { getClient: async ({ clientId }: { clientId: string }) => {
      calls++;
      if (clientId !== "app") throw new ConnectError("no such client", Code.NotFound);
      return { client: { webOrigins, redirectUris: [] } };
    } } } as unknown as RpcClients;
    const origins = new ClientOrigins(rpc, () => now);
    expect([...await origins.get("r", "app")]).toEqual(["https://a.test"]);
    webOrigins = ["https://b.test"];
    now = ORIGINS_CACHE_MS - 1;
    expect([...await origins.get("r", "app")]).toEqual(["https://a.test"]);
    origins.forget("r", "app");
    expect([...await origins.get("r", "app")]).toEqual(["https://b.test"]);
    expect(calls).toBe(2);
    expect([...await origins.get("r", "nobody")]).toEqual([]);
  });
});
