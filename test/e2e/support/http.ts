import type { RecordedResponse } from "../../support/openapi-validator.js";

/** A response as tests assert it: exact status, parsed body, headers. */
export interface HttpResult<T = any> {
  status: number;
  body: T;
  text: string;
  headers: Headers;
}

/** What `http` saw, once `recordResponses` was called in the test file (for the OpenAPI check). */
let recorded: RecordedResponse[] | undefined;

/** Starts keeping every response `http` (and so `adminApi`) receives; returns the list it fills. */
export function recordResponses(): RecordedResponse[] {
  recorded ??= [];
  return recorded;
}

/**
 * Realms this test file created on the suite's shared cluster through `http`, which the cluster
 * target deletes when the file stops it. The cluster's MongoDB-wire server (FerretDB v1) filters
 * every query but a bare `_id` in Go over the whole collection, so realms left behind by earlier
 * files would slow every later file's lookups.
 */
const clusterRealms = new Set<string>();

/** The realms recorded so far, forgotten as they are handed over. */
export function takeClusterRealms(): string[] {
  const names = [...clusterRealms];
  clusterRealms.clear();
  return names;
}

function noteClusterRealm(method: string, url: string, status: number, body: string | undefined): void {
  const cluster = process.env.TESSERA_TEST_CLUSTER_URL;
  if (!cluster || method !== "POST" || status !== 201 || url !== `${cluster}/admin/realms` || !body) return;
  try {
    const name = (JSON.parse(body) as { name?: unknown }).name;
    if (typeof name === "string") clusterRealms.add(name);
  } catch {
    // Not JSON: nothing was created from it.
  }
}

export async function http<T = any>(method: string, url: string, options: {
  body?: unknown; headers?: Record<string, string>; form?: Record<string, string>;
} = {}): Promise<HttpResult<T>> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  let body: string | undefined;
  if (options.form) {
    headers["content-type"] = "application/x-www-form-urlencoded";
    body = new URLSearchParams(options.form).toString();
  } else if (options.body !== undefined) {
    headers["content-type"] ??= "application/json";
    body = typeof options.body === "string" ? options.body : JSON.stringify(options.body);
  }
  const res = await fetch(url, { method, headers, ...(body !== undefined ? { body } : {}), redirect: "manual" });
  const text = await res.text();
  noteClusterRealm(method, url, res.status, body);
  let parsed: unknown = undefined;
  if (text && (res.headers.get("content-type") ?? "").includes("json")) parsed = JSON.parse(text);
  recorded?.push({ method, path: new URL(url).pathname, status: res.status, contentType: res.headers.get("content-type") ?? "", body: parsed });
  return { status: res.status, body: parsed as T, text, headers: res.headers };
}

/** An Admin API caller bound to a server and a credential. */
export function adminApi(baseUrl: string, apiKey: string) {
  const call = <T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    http<T>(method, `${baseUrl}${path}`, { ...(body !== undefined ? { body } : {}), headers: { "X-Admin-API-Key": apiKey, ...headers } });
  return {
    get: <T = any>(path: string) => call<T>("GET", path),
    post: <T = any>(path: string, body?: unknown) => call<T>("POST", path, body ?? {}),
    put: <T = any>(path: string, body?: unknown) => call<T>("PUT", path, body ?? {}),
    del: <T = any>(path: string, body?: unknown) => call<T>("DELETE", path, body),
    call,
  };
}

export function uniqueName(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}`;
}
