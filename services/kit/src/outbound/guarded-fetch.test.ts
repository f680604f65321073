import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { classifyAddress, urlProblem } from "./address-policy.js";
import { guardedFetch, guardedLookup, OutboundError } from "./guarded-fetch.js";

const closed = { allowLoopback: false };
const open = { allowLoopback: true };

describe("outbound address policy", () => {
  it("classifies loopback, private, link-local, metadata and public addresses", () => {
    expect(classifyAddress("127.0.0.1")).toBe("loopback");
    expect(classifyAddress("::1")).toBe("loopback");
    expect(classifyAddress("::ffff:7f00:1")).toBe("loopback");
    for (const ip of ["10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0", "fd00:ec2::254", "fe80::1", "::ffff:10.0.0.1", "224.0.0.1"]) {
      expect([ip, classifyAddress(ip)]).toEqual([ip, "refused"]);
    }
    expect(classifyAddress("8.8.8.8")).toBe("public");
    expect(classifyAddress("2606:4700::1111")).toBe("public");
  });

  it("judges URLs at save time", () => {
    expect(urlProblem("https://idp.example.com/token", closed)).toBeNull();
    expect(urlProblem("http://idp.example.com/token", closed)).toMatch(/https/);
    expect(urlProblem("http://idp.example.com/token", open)).toMatch(/https/);
    expect(urlProblem("https://169.254.169.254/latest", open)).toMatch(/private, link-local/);
    expect(urlProblem("https://10.0.0.5/x", open)).toMatch(/private/);
    expect(urlProblem("https://[::ffff:192.168.0.1]/x", open)).toMatch(/private/);
    expect(urlProblem("http://127.0.0.1:8080/x", closed)).toMatch(/loopback/);
    expect(urlProblem("http://localhost:8080/x", closed)).toMatch(/loopback/);
    expect(urlProblem("http://127.0.0.1:8080/x", open)).toBeNull();
    expect(urlProblem("ftp://idp.example.com/x", open)).toMatch(/https/);
    expect(urlProblem("not a url", open)).toMatch(/absolute/);
    expect(urlProblem("https://u:p@idp.example.com/", open)).toMatch(/credentials/);
  });

  it("refuses a host name whose address is not allowed, at resolution", async () => {
    const lookup = guardedLookup(closed);
    const err = await new Promise<Error | null>((r) => lookup("localhost", {}, (e) => r(e)));
    expect(err).toBeInstanceOf(OutboundError);
    const ok = await new Promise<string>((r) => guardedLookup(open)("localhost", {}, (_e, a) => r(String(a))));
    expect(["127.0.0.1", "::1"]).toContain(ok);
  });
});

describe("guardedFetch", () => {
  let server: Server;
  let base = "";
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === "/redirect") { res.writeHead(302, { location: "http://169.254.169.254/" }); return res.end(); }
      if (req.url === "/big") { res.writeHead(200); return res.end(Buffer.alloc(4096, 97)); }
      if (req.url === "/slow") { setTimeout(() => res.end("late"), 500); return; }
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ method: req.method }));
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it("fetches loopback only when allowed", async () => {
    await expect(guardedFetch(`${base}/`, closed)).rejects.toMatchObject({ reason: "refused_url" });
    const res = await guardedFetch(`${base}/`, open, { method: "POST", body: "a=1" });
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({ method: "POST" });
  });

  it("answers a redirect without following it", async () => {
    const res = await guardedFetch(`${base}/redirect`, open);
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe("http://169.254.169.254/");
  });

  it("caps the response size and the time", async () => {
    await expect(guardedFetch(`${base}/big`, open, { maxBytes: 1000 })).rejects.toMatchObject({ reason: "too_large" });
    await expect(guardedFetch(`${base}/slow`, open, { timeoutMs: 100 })).rejects.toMatchObject({ reason: "timeout" });
  });
});

describe("TESSERA_OUTBOUND_ALLOW_LOOPBACK", () => {
  it("defaults to false and names itself when the value is bad", async () => {
    const { readOutboundPolicy } = await import("./address-policy.js");
    expect(readOutboundPolicy({})).toEqual({ allowLoopback: false });
    expect(readOutboundPolicy({ TESSERA_OUTBOUND_ALLOW_LOOPBACK: "true" })).toEqual({ allowLoopback: true });
    expect(() => readOutboundPolicy({ TESSERA_OUTBOUND_ALLOW_LOOPBACK: "maybe" })).toThrow(/TESSERA_OUTBOUND_ALLOW_LOOPBACK/);
  });
});
