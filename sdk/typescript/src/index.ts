import createClient, { type Client, type ClientOptions } from "openapi-fetch";
import type { components, operations, paths } from "./schema.js";

export type { components, operations, paths };
/** The document's schemas by name: `Schemas["Realm"]`, `Schemas["UserInput"]`. */
export type Schemas = components["schemas"];
export type TesseraClient = Client<paths>;

export interface TesseraClientOptions extends Omit<ClientOptions, "baseUrl"> {
  /** The server's public URL (TESSERA_PUBLIC_URL), e.g. `https://id.example.com`. */
  baseUrl: string;
  /** The admin API key, sent as `X-Admin-API-Key`. */
  apiKey?: string;
  /** An admin bearer token (from `loginAdmin`), or a function giving the current one. */
  accessToken?: string | (() => string | Promise<string>);
}

/**
 * A typed client of the Tessera Admin API (and the public endpoints the document describes),
 * over openapi-fetch: `client.GET("/admin/realms/{realmName}", { params: { path: { realmName } } })`
 * answers `{ data, error, response }`, with `data` and `error` typed from the document.
 */
export function createTesseraClient(options: TesseraClientOptions): TesseraClient {
  const { baseUrl, apiKey, accessToken, ...rest } = options;
  const client = createClient<paths>({ ...rest, baseUrl: baseUrl.replace(/\/+$/, "") });
  if (apiKey !== undefined || accessToken !== undefined) {
    client.use({
      async onRequest({ request }) {
        if (apiKey !== undefined) request.headers.set("X-Admin-API-Key", apiKey);
        else {
          const token = typeof accessToken === "function" ? await accessToken() : accessToken;
          request.headers.set("Authorization", `Bearer ${token}`);
        }
        return request;
      },
    });
  }
  return client;
}

/** What every call answers (openapi-fetch's result), as `unwrap` reads it. */
export interface TesseraAnswer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/**
 * A call to a path built at run time (already concrete: no `{param}` left in it), by method, for
 * clients that address many resources the same way (a CLI's resource commands, a console's
 * pages). The typed calls (`client.GET("/admin/realms/{realmName}", ...)`) are better wherever
 * the path is known when the code is written.
 */
export function requestPath<T = unknown>(
  client: TesseraClient, method: string, path: string, init: { body?: unknown; params?: { query?: Record<string, unknown> } } = {},
): Promise<TesseraAnswer<T>> {
  // Each documented path is typed; a path built at run time is one of them, unnamed.
  const request = client.request as unknown as (m: string, url: string, init: object) => Promise<TesseraAnswer<T>>;
  return request(method.toLowerCase(), path, init);
}

/** One problem of a refused document (realm import): where, and what is wrong there. */
export interface TesseraProblem {
  path: string;
  message: string;
}

/** The gateway's error body (`{ error, message, field?, problems? }`), thrown by `unwrap`. */
export class TesseraApiError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    message: string,
    readonly field?: string,
    /** A refused document's problems (`invalid_document`), each with its JSON path. */
    readonly problems: TesseraProblem[] = [],
  ) {
    super(message);
    this.name = "TesseraApiError";
  }
}

/**
 * The data of a successful answer, or a TesseraApiError with the server's status, error code,
 * message and the field at fault: `const realm = unwrap(await client.GET(...))`.
 */
export function unwrap<T>(result: TesseraAnswer<T>): T {
  if (result.response.ok) return result.data as T;
  // A body that is not the gateway's (a proxy's HTML page, say) still gives the status.
  const e = (typeof result.error === "object" && result.error !== null ? result.error : {}) as {
    error?: string; message?: string; field?: string; error_description?: string; problems?: unknown;
  };
  const problems = Array.isArray(e.problems)
    ? e.problems.filter((p): p is TesseraProblem => typeof p?.path === "string" && typeof p?.message === "string")
    : [];
  throw new TesseraApiError(
    result.response.status, e.error ?? "http_error", e.message ?? e.error_description ?? `HTTP ${result.response.status}`, e.field, problems,
  );
}

/** Logs in as an admin (`POST /admin/auth/login`) and answers the bearer token and its lifetime. */
export async function loginAdmin(baseUrl: string, username: string, password: string): Promise<{ accessToken: string; expiresIn: number }> {
  const res = unwrap(await createTesseraClient({ baseUrl }).POST("/admin/auth/login", { body: { username, password } }));
  return { accessToken: res.accessToken, expiresIn: res.expiresIn };
}

export { readUserFile, UserFileError, type UserFile } from "./user-file.js";
export { parseCsv, type CsvRow } from "./csv.js";
