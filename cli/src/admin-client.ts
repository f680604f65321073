import { CliError, EXIT } from "./exit-codes.js";
import type { Profile } from "./config-file.js";

export type Method = "GET" | "POST" | "PUT" | "DELETE";

/**
 * A thin client of the Admin API over fetch. Every error answer becomes a CliError carrying the
 * server's own message and the field it names, so the user reads what the server said.
 */
export class AdminClient {
  constructor(private readonly profile: Profile) {}

  get baseUrl(): string {
    return this.profile.url.replace(/\/+$/, "");
  }

  async request<T = unknown>(method: Method, path: string, body?: unknown, query?: Record<string, string | number | boolean | undefined>): Promise<T> {
    const url = new URL(this.baseUrl + path);
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = { accept: "application/json" };
    if (this.profile.apiKey) headers["x-admin-api-key"] = this.profile.apiKey;
    else if (this.profile.accessToken) headers.authorization = `Bearer ${this.profile.accessToken}`;
    if (body !== undefined) headers["content-type"] = "application/json";
    const res = await send(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    return (await readAnswer(res)) as T;
  }

  /** A request to a public path (health, OAuth) with a form or no body. */
  async publicRequest(method: Method, path: string, form?: URLSearchParams, headers: Record<string, string> = {}): Promise<unknown> {
    const res = await send(new URL(this.baseUrl + path), {
      method, headers: { accept: "application/json", ...(form ? { "content-type": "application/x-www-form-urlencoded" } : {}), ...headers },
      body: form?.toString(),
    });
    return readAnswer(res);
  }
}

async function send(url: URL, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (e) {
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    throw new CliError(EXIT.unreachable, `cannot reach ${url.origin}: ${cause?.code ?? cause?.message ?? String(e)}`);
  }
}

async function readAnswer(res: Response): Promise<unknown> {
  const text = await res.text();
  let body: unknown = undefined;
  if (text) {
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  }
  if (res.ok) return body;
  const b = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
  const message = String(b.message ?? b.error_description ?? b.error ?? `HTTP ${res.status}`);
  const reason = typeof b.error === "string" ? ` (${b.error})` : "";
  const field = typeof b.field === "string" ? b.field : undefined;
  const code = res.status === 401 ? EXIT.notLoggedIn : EXIT.apiError;
  throw new CliError(code, `${res.status}${reason}: ${message}${field ? ` [field: ${field}]` : ""}${problems(b.problems)}`, field);
}

const PROBLEMS_SHOWN = 3;

/**
 * A rejected document (realm import) says only "the document has N problems" in its message and
 * lists them in `problems`; without them the user cannot tell what to fix. The first few go on the
 * same line, so the error stays one line.
 */
function problems(list: unknown): string {
  if (!Array.isArray(list) || list.length === 0) return "";
  const shown = list.slice(0, PROBLEMS_SHOWN).map((p: { path?: unknown; message?: unknown }) =>
    typeof p?.path === "string" ? `${p.path}: ${String(p.message)}` : String(p?.message ?? JSON.stringify(p)));
  const more = list.length > PROBLEMS_SHOWN ? `; and ${list.length - PROBLEMS_SHOWN} more` : "";
  return ` (${shown.join("; ")}${more})`;
}
