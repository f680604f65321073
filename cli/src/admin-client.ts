import {
  createTesseraClient, requestPath, TesseraApiError, unwrap, type TesseraAnswer, type TesseraClient, type TesseraProblem,
} from "../../sdk/typescript/src/index.js";
import { CliError, EXIT } from "./exit-codes.js";
import type { Profile } from "./config-file.js";

export type Method = "GET" | "POST" | "PUT" | "DELETE";

type Query = Record<string, string | number | boolean | undefined>;

/**
 * The CLI's way to the Admin API: the project's TypeScript SDK (sdk/typescript, generated from the
 * OpenAPI document) with the profile's credential. Typed calls go through `api`; the resource
 * commands, which address nine kinds of resource by the same verbs, go through `request`. Every
 * error answer becomes a CliError carrying the server's own message, the field it names and a
 * refused document's first problems, so the user reads what the server said.
 */
export class AdminClient {
  readonly api: TesseraClient;

  constructor(private readonly profile: Profile) {
    this.api = createTesseraClient({
      baseUrl: profile.url,
      ...(profile.apiKey ? { apiKey: profile.apiKey } : profile.accessToken ? { accessToken: profile.accessToken } : {}),
      fetch: send,
    });
  }

  get baseUrl(): string {
    return this.profile.url.replace(/\/+$/, "");
  }

  /** The data of a typed call's answer, or the CliError for its error answer. */
  async call<T>(pending: Promise<TesseraAnswer<T>>): Promise<T> {
    const answer = await pending;
    try {
      return unwrap(answer);
    } catch (e) {
      throw e instanceof TesseraApiError ? cliErrorOf(e) : e;
    }
  }

  /** Any Admin API path by method (the path is already concrete: no `{param}` left in it). */
  request<T = unknown>(method: Method, path: string, body?: unknown, query?: Query): Promise<T> {
    const params = query ? { query: Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined)) } : undefined;
    return this.call(requestPath<T>(this.api, method, path, { ...(body !== undefined ? { body } : {}), ...(params ? { params } : {}) }));
  }

  /** A request to a public path (health, OAuth) with a form or no body, and no admin credential. */
  async publicRequest(method: Method, path: string, form?: URLSearchParams, headers: Record<string, string> = {}): Promise<unknown> {
    const res = await send(new Request(this.baseUrl + path, {
      method, headers: { accept: "application/json", ...(form ? { "content-type": "application/x-www-form-urlencoded" } : {}), ...headers },
      ...(form ? { body: form.toString() } : {}),
    }));
    const text = await res.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      // Not JSON: the text itself.
    }
    return this.call(Promise.resolve(res.ok ? { data: body, response: res } : { error: body, response: res }));
  }
}

/** fetch, with an unreachable server named by its origin and the system's reason. */
async function send(input: Request): Promise<Response> {
  try {
    return await fetch(input);
  } catch (e) {
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    throw new CliError(EXIT.unreachable, `cannot reach ${new URL(input.url).origin}: ${cause?.code ?? cause?.message ?? String(e)}`);
  }
}

function cliErrorOf(e: TesseraApiError): CliError {
  const reason = e.error !== "http_error" ? ` (${e.error})` : "";
  const code = e.status === 401 ? EXIT.notLoggedIn : EXIT.apiError;
  return new CliError(code, `${e.status}${reason}: ${e.message}${e.field ? ` [field: ${e.field}]` : ""}${problems(e.problems)}`, e.field);
}

const PROBLEMS_SHOWN = 3;

/**
 * A rejected document (realm import) says only "the document has N problems" in its message and
 * lists them in `problems`; without them the user cannot tell what to fix. The first few go on the
 * same line, so the error stays one line.
 */
function problems(list: TesseraProblem[]): string {
  if (list.length === 0) return "";
  const shown = list.slice(0, PROBLEMS_SHOWN).map((p) => `${p.path}: ${p.message}`);
  const more = list.length > PROBLEMS_SHOWN ? `; and ${list.length - PROBLEMS_SHOWN} more` : "";
  return ` (${shown.join("; ")}${more})`;
}
