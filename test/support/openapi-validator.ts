import Ajv2020Module from "ajv/dist/2020.js";
import { openApiDocument } from "../../gateway/src/openapi/document.js";

type Validate = ((data: unknown) => boolean) & { errors?: Array<{ instancePath: string; message?: string }> | null };
interface AjvLike {
  addSchema(schema: object, key: string): void;
  compile(schema: object): Validate;
}
const Ajv2020 = ((Ajv2020Module as unknown as { default?: unknown }).default ?? Ajv2020Module) as new (o: object) => AjvLike;

/** One response as a test saw it. */
export interface RecordedResponse {
  method: string;
  /** The request's path, without the query. */
  path: string;
  status: number;
  contentType: string;
  /** The parsed JSON body, or undefined when the body is not JSON. */
  body: unknown;
}

interface Route {
  method: string;
  template: string;
  pattern: RegExp;
  /** Fixed segments: a fixed path wins over a parameter ("/admin/realms/themes" over "{realmName}"). */
  fixed: number;
}

const DOC_ID = "tessera-openapi.json";

/**
 * Checks responses against the OpenAPI document (gateway/src/openapi): the status is documented
 * (or the operation has a `default`), the media type is the documented one, and a JSON body
 * validates against the documented schema with ajv, an independent JSON Schema 2020-12 validator.
 */
export class OpenApiValidator {
  private readonly doc = openApiDocument() as {
    paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: object }>; "x-tessera-body-optional"?: boolean }> }>>;
  };
  private readonly ajv: AjvLike;
  private readonly routes: Route[] = [];
  private readonly compiled = new Map<string, Validate>();

  constructor() {
    this.ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false, logger: false });
    this.ajv.addSchema(this.doc, DOC_ID);
    for (const [template, item] of Object.entries(this.doc.paths)) {
      const segs = template.split("/").slice(1);
      const pattern = new RegExp(`^/${segs.map((s) => (s.startsWith("{") ? "[^/]+" : s.replace(/[.*+?^$()|[\]\\]/g, "\\$&"))).join("/")}$`);
      for (const method of Object.keys(item)) {
        this.routes.push({ method: method.toUpperCase(), template, pattern, fixed: segs.filter((s) => !s.startsWith("{")).length });
      }
    }
    this.routes.sort((a, b) => b.fixed - a.fixed);
  }

  /** The problems of one response; [] when it matches the document. */
  problems(r: RecordedResponse): string[] {
    const where = `${r.method} ${r.path} -> ${r.status}`;
    // HEAD is answered as GET without the body (RFC 9110 section 9.3.2).
    const method = r.method === "HEAD" ? "GET" : r.method;
    let route = this.routes.find((x) => x.method === method && x.pattern.test(r.path));
    let status = String(r.status);
    if (!route) {
      // A path the gateway does not route is a 404 in its error format; a method the path does
      // not have is a 405 in the gateway's format, or in the OAuth or page format of the path's
      // operations where the app renders those (app.ts).
      const other = this.routes.find((x) => x.pattern.test(r.path));
      const gateway = () => this.check(where, "/admin/realms", "GET", "default", r);
      if (!other && r.status === 404) return gateway();
      if (!other || r.status !== 405) return [`${where}: no documented operation`];
      if (gateway().length === 0) return [];
      route = other;
      status = "default";
    }
    return this.check(where, route.template, route.method, status, r);
  }

  private check(where: string, template: string, method: string, status: string, r: RecordedResponse): string[] {
    const route = { template, method };
    const responses = this.doc.paths[route.template]![route.method.toLowerCase()]!.responses;
    const key = status in responses ? status : "default" in responses ? "default" : undefined;
    if (!key) return [`${where}: status not documented for ${route.method} ${route.template}`];
    const content = responses[key]!.content;
    const media = r.contentType.split(";")[0]!.trim().toLowerCase();
    if (media === "" && r.body === undefined && responses[key]!["x-tessera-body-optional"]) return [];
    // A redirect's body (express writes a line of text or HTML) is not part of the contract.
    const bodyless = media === "" || r.method === "HEAD" || (r.status >= 300 && r.status < 400);
    if (!content) return bodyless ? [] : [`${where}: documented without a body, got ${media}`];
    if (r.method === "HEAD") return [];
    if (!(media in content)) return [`${where}: ${media || "no body"}, documented ${Object.keys(content).join(", ")}`];
    if (!media.includes("json")) return [];
    const pointer = ["paths", route.template, route.method.toLowerCase(), "responses", key, "content", media, "schema"]
      .map((s) => s.replace(/~/g, "~0").replace(/\//g, "~1")).join("/");
    let validate = this.compiled.get(pointer);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `${DOC_ID}#/${pointer.split("/").map(encodeURIComponent).join("/")}` });
      this.compiled.set(pointer, validate);
    }
    if (validate(r.body)) return [];
    return (validate.errors ?? []).slice(0, 5).map((e) => `${where}: body${e.instancePath} ${e.message ?? ""}`);
  }
}
