import type { Method, RouteAuth } from "../http/route-table.js";
import type { JsonSchema } from "./proto-schema.js";

/** A query or header parameter (OpenAPI 3.1 section 4.8.12). */
export interface Param {
  name: string;
  description: string;
  schema?: JsonSchema;
  required?: boolean;
}

export interface Body {
  schema: JsonSchema;
  /** `application/json` unless named; several when the route reads each (the same schema). */
  media?: string | string[];
  required?: boolean;
  description?: string;
}

export interface Answer {
  description: string;
  schema?: JsonSchema;
  /** `application/json` unless named; none when there is no schema and no media; several when the answer is one of them. */
  media?: string | string[];
  headers?: Record<string, string>;
  /** The answer may come without a body (`x-tessera-body-optional`), e.g. a 401 to a request that sent no token. */
  bodyOptional?: boolean;
}

/**
 * One documented operation, written as the route table declares it: the express path (`:param`)
 * and the route's authentication, so the parity test can compare the two lists one to one.
 */
export interface Operation {
  id: string;
  method: Method;
  path: string;
  auth: RouteAuth;
  tag: string;
  summary: string;
  /** Descriptions of path parameters whose name means something else here than in PATH_PARAMS (document.ts). */
  pathParams?: Record<string, string>;
  description?: string;
  query?: Param[];
  headers?: Param[];
  body?: Body;
  /** By status. An error answer in the family's format is added by the builder (`default`). */
  responses: Record<number, Answer>;
  /** The family whose error body `default` documents: the gateway's JSON, OAuth's, or an HTML page. */
  errors?: "gateway" | "oauth" | "page" | "none";
}

export const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
export const arrayOf = (items: JsonSchema): JsonSchema => ({ type: "array", items });
export const json = (description: string, schema: JsonSchema): Answer => ({ description, schema });
export const html = (description: string): Answer => ({ description, schema: { type: "string" }, media: "text/html" });
export const noContent = (description = "Done; no content."): Answer => ({ description });
export const redirect = (description: string): Answer => ({ description, headers: { Location: "Where the browser goes next." } });

/** First/max paging as Keycloak's listings take them. */
export const PAGE: Param[] = [
  { name: "first", description: "Index of the first result (default 0).", schema: { type: "integer", minimum: 0 } },
  { name: "max", description: "Largest number of results (the service applies its default and cap).", schema: { type: "integer", minimum: 0 } },
];

export const FORM = "application/x-www-form-urlencoded";
