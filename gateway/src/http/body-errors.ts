/** A request body the gateway could not read, as the gateway's error body names it. */
export interface BodyError {
  status: number;
  reason: string;
  message: string;
}

/** body-parser's error types (body-parser 2, raw-body) the gateway names itself. */
const KNOWN: Record<string, BodyError> = {
  "entity.parse.failed": { status: 400, reason: "invalid_json", message: "request body is not valid JSON" },
  "entity.too.large": { status: 413, reason: "payload_too_large", message: "request body is too large" },
  "parameters.too.many": { status: 413, reason: "payload_too_large", message: "request body has too many parameters" },
  "encoding.unsupported": { status: 415, reason: "unsupported_media_type", message: "unsupported body encoding" },
  "charset.unsupported": { status: 415, reason: "unsupported_media_type", message: "unsupported body charset; send UTF-8" },
};

/** What the form parsers answer for more parameters than FORM_PARAMETER_LIMIT (the lean lane says the same). */
export const TOO_MANY_PARAMETERS: BodyError = KNOWN["parameters.too.many"]!;

const REASON_BY_STATUS: Record<number, string> = { 413: "payload_too_large", 415: "unsupported_media_type" };

/**
 * A body parser's failure (express.json / express.urlencoded), or undefined for any other error.
 * Besides the types named above, body-parser raises http-errors (`status` below 500, `expose`) for
 * bodies it cannot read at all, e.g. a `Content-Encoding: gzip` body that is not gzip (a zlib error
 * it marks 400): those are the client's fault and keep their own 4xx status, never a 500.
 */
export function bodyParserError(err: unknown): BodyError | undefined {
  if (!(err instanceof Error)) return undefined;
  const e = err as Error & { type?: unknown; status?: unknown; expose?: unknown };
  const known = typeof e.type === "string" ? KNOWN[e.type] : undefined;
  if (known) return known;
  if (typeof e.status !== "number" || e.status < 400 || e.status >= 500 || (e.expose !== true && typeof e.type !== "string")) return undefined;
  return { status: e.status, reason: REASON_BY_STATUS[e.status] ?? "invalid_request", message: "request body could not be read" };
}

/**
 * express's router refuses a path parameter it cannot percent-decode (`/realms/%E0%A4%A/...`) with
 * a URIError marked 400: the client's fault like an unreadable body, never a 500.
 */
export function pathDecodeError(err: unknown): BodyError | undefined {
  if (!(err instanceof URIError) || (err as URIError & { status?: unknown }).status !== 400) return undefined;
  return { status: 400, reason: "invalid_request", message: "the request path is not valid percent-encoded UTF-8" };
}

/** A request the gateway could not read, its body or its path; undefined for any other error. */
export function unreadableRequestError(err: unknown): BodyError | undefined {
  return bodyParserError(err) ?? pathDecodeError(err);
}
