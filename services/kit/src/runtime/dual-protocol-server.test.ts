import http2 from "node:http2";
import net from "node:net";
import type { AddressInfo } from "node:net";
import { DualProtocolServer } from "./dual-protocol-server.js";

/** A server answering `<http version> <path>`, and its port. */
async function start(delayMs = 0): Promise<{ server: DualProtocolServer; port: number }> {
  const server = new DualProtocolServer((req, res) => {
    setTimeout(() => res.end(`${req.httpVersion} ${req.url}`), delayMs);
  });
  await server.listen(0, "127.0.0.1");
  const port = ((server as unknown as { tcp: net.Server }).tcp.address() as AddressInfo).port;
  return { server, port };
}

function h2Get(session: http2.ClientHttp2Session, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = session.request({ ":path": path });
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (d: string) => { body += d; });
    req.on("end", () => resolve(body));
    req.on("error", reject);
  });
}

/** Raw HTTP/1.1 over a socket that sends its request in the given pieces. */
function h1Pieces(port: number, pieces: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = net.connect(port, "127.0.0.1", async () => {
      for (const p of pieces) { s.write(p); await new Promise((r) => setTimeout(r, 20)); }
    });
    let out = "";
    s.setEncoding("utf8");
    s.on("data", (d: string) => { out += d; });
    s.on("end", () => resolve(out));
    s.on("error", reject);
  });
}

describe("DualProtocolServer", () => {
  it("serves HTTP/1.1 and cleartext HTTP/2 (prior knowledge) on one port", async () => {
    const { server, port } = await start();
    const r = await fetch(`http://127.0.0.1:${port}/health`);
    expect([r.status, await r.text()]).toEqual([200, "1.1 /health"]);
    const session = http2.connect(`http://127.0.0.1:${port}`);
    expect(await h2Get(session, "/a")).toBe("2.0 /a");
    expect(await h2Get(session, "/b")).toBe("2.0 /b");
    session.close();
    await server.close();
  });

  it("decides on the first four bytes even when they arrive one at a time", async () => {
    const { server, port } = await start();
    const reply = await h1Pieces(port, ["G", "E", "T /x HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n"]);
    expect(reply.startsWith("HTTP/1.1 200 OK")).toBe(true);
    expect(reply.endsWith("1.1 /x")).toBe(true);
    await server.close();
  });

  it("on close cuts an idle keep-alive HTTP/1.1 connection at once (a scraper's), not after a timeout", async () => {
    const { server, port } = await start();
    const r = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(await r.text()).toBe("1.1 /metrics");
    const t0 = Date.now();
    await server.close(5_000);
    expect(Date.now() - t0).toBeLessThan(1_000);
  });

  it("on close lets an in-flight request of each protocol finish, then stops listening", async () => {
    const { server, port } = await start(200);
    const session = http2.connect(`http://127.0.0.1:${port}`);
    await new Promise((r) => session.once("connect", r));
    const h2 = h2Get(session, "/slow2");
    const h1 = fetch(`http://127.0.0.1:${port}/slow1`).then((r) => r.text());
    await new Promise((r) => setTimeout(r, 50));
    const closed = server.close();
    expect(await Promise.all([h1, h2])).toEqual(["1.1 /slow1", "2.0 /slow2"]);
    await closed;
    session.close();
    await expect(fetch(`http://127.0.0.1:${port}/after`)).rejects.toThrow();
  });
});
