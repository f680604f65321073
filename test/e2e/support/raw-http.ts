import { request } from "node:http";

export interface RawResult {
  status: number;
  text: string;
  headers: Record<string, string | string[] | undefined>;
}

/**
 * One HTTP request with the path sent exactly as written: fetch and `new URL` normalise `/./`,
 * `/../` and the like away before sending, which would hide what the server does with them.
 */
export function rawRequest(baseUrl: string, method: string, path: string, options: {
  headers?: Record<string, string>; body?: string;
} = {}): Promise<RawResult> {
  const { hostname, port } = new URL(baseUrl);
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (options.body !== undefined) headers["content-length"] = String(Buffer.byteLength(options.body));
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8"), headers: res.headers }));
    });
    req.on("error", reject);
    req.end(options.body);
  });
}
