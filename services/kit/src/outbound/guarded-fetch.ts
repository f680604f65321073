import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { request as httpsRequest } from "node:https";
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { isIP, type LookupFunction } from "node:net";
import { addressAllowed, urlProblem, type OutboundPolicy } from "./address-policy.js";

export interface GuardedRequest {
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  /** Whole exchange, connect to last byte (default 10 s). */
  timeoutMs?: number;
  /** Largest response body accepted (default 1 MiB). */
  maxBytes?: number;
}

export interface GuardedResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  text(): string;
  /** The body as JSON; an OutboundError when it is not. */
  json(): unknown;
}

/** Why an outbound fetch failed; `message` never carries the response body. */
export class OutboundError extends Error {
  constructor(readonly reason: "refused_url" | "refused_address" | "timeout" | "too_large" | "network" | "bad_response", message: string) {
    super(message);
    this.name = "OutboundError";
  }
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_BYTES = 1024 * 1024;

/**
 * The one SSRF-guarded HTTP client of Tessera's outbound fetches (DESIGN 4): the URL is judged by
 * the address policy, every address its host resolves to is checked at connect time (the address
 * connected to is the one checked, so a DNS answer cannot change between check and use), no
 * redirect is followed (a 3xx is answered as it is), and the time and response size are capped.
 */
export function guardedFetch(url: string, policy: OutboundPolicy, req: GuardedRequest = {}): Promise<GuardedResponse> {
  const problem = urlProblem(url, policy);
  if (problem) return Promise.reject(new OutboundError("refused_url", `outbound URL ${problem}`));
  const u = new URL(url);
  const host = u.hostname.replace(/^\[|\]$/g, "");
  if (isIP(host) && !addressAllowed(host, policy)) return Promise.reject(new OutboundError("refused_address", "outbound address refused"));
  const maxBytes = req.maxBytes ?? DEFAULT_MAX_BYTES;
  const timeoutMs = req.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const lookup = guardedLookup(policy);
  const send = u.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise<GuardedResponse>((resolve, reject) => {
    let settled = false;
    const fail = (e: OutboundError) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      r.destroy();
      reject(e);
    };
    const headers: Record<string, string> = { "user-agent": "Tessera", ...(req.headers ?? {}) };
    if (req.body !== undefined) headers["content-length"] = String(Buffer.byteLength(req.body));
    const r = send(u, { method: req.method ?? "GET", headers, lookup, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const declared = Number(res.headers["content-length"] ?? "0");
      if (declared > maxBytes) return fail(new OutboundError("too_large", `outbound response over ${maxBytes} bytes`));
      res.on("data", (c: Buffer) => {
        size += c.length;
        if (size > maxBytes) return fail(new OutboundError("too_large", `outbound response over ${maxBytes} bytes`));
        chunks.push(c);
      });
      res.on("error", () => fail(new OutboundError("network", "outbound response failed")));
      res.on("end", () => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        const body = Buffer.concat(chunks);
        resolve({
          status: res.statusCode ?? 0, headers: res.headers, body,
          text: () => body.toString("utf8"),
          json: () => {
            try {
              return JSON.parse(body.toString("utf8")) as unknown;
            } catch {
              throw new OutboundError("bad_response", "outbound response is not JSON");
            }
          },
        });
      });
    });
    const timer = setTimeout(() => fail(new OutboundError("timeout", `outbound request took over ${timeoutMs} ms`)), timeoutMs);
    r.on("error", (e: Error) => fail(e instanceof OutboundError ? e : new OutboundError("network", `outbound request failed: ${(e as NodeJS.ErrnoException).code ?? "error"}`)));
    if (req.body !== undefined) r.write(req.body);
    r.end();
  });
}

/** dns.lookup, refusing every answer the policy does not allow (all of them must pass). */
export function guardedLookup(policy: OutboundPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, "", 0);
      const list = Array.isArray(addresses) ? addresses : [];
      if (!list.length) return callback(new OutboundError("network", "outbound host has no address") as NodeJS.ErrnoException, "", 0);
      if (list.some((a) => !addressAllowed(a.address, policy))) {
        return callback(new OutboundError("refused_address", "outbound address refused") as NodeJS.ErrnoException, "", 0);
      }
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      callback(null, list[0]!.address, list[0]!.family);
    });
  };
}
