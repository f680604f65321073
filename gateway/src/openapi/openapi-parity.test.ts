import pino from "pino";
import { Registry } from "prom-client";
import Ajv2020Module from "ajv/dist/2020.js";
import { createGateway } from "../app.js";
import { HttpMetrics } from "../http/http-metrics.js";
import type { AdminTokens } from "../admin/admin-tokens.js";
import type { RpcClients } from "../rpc-clients.js";
import { openApiDocument, openApiPath, operations } from "./document.js";

/**
 * The document and the server agree (spec 1.13): every route of the gateway's table is
 * documented with its method and authentication, and every documented operation is routed.
 */
const routes = createGateway({
  // Building the gateway only registers its routes; nothing here is called.
  rpc: {} as RpcClients, logger: pino({ level: "silent" }), registries: [], httpMetrics: new HttpMetrics(new Registry()),
  apiKeySha256: "", adminTokens: {} as AdminTokens, publicUrl: "http://localhost",
}).routes();

const key = (r: { method: string; path: string; auth: string }) => `${r.method} ${r.path} (${r.auth})`;

describe("OpenAPI document and route table parity", () => {
  it("documents every route with its method and authentication, and nothing that is not routed", () => {
    const routed = new Set(routes.map(key));
    const documented = new Set(operations().map(key));
    expect(routes.length).toBeGreaterThan(140);
    expect([...routed].filter((r) => !documented.has(r))).toEqual([]); // undocumented routes
    expect([...documented].filter((d) => !routed.has(d))).toEqual([]); // documented, not routed
    expect(documented.size).toBe(operations().length); // no operation twice
  });

  it("lists each operation under its path and method, with a unique operationId and the security of its authentication", () => {
    const doc = openApiDocument() as { paths: Record<string, Record<string, { operationId: string; security: unknown[]; "x-tessera-auth": string }>> };
    const ids = new Set<string>();
    for (const op of operations()) {
      const o = doc.paths[openApiPath(op.path)]?.[op.method.toLowerCase()];
      expect([op.method, op.path, o?.operationId, o?.["x-tessera-auth"]]).toEqual([op.method, op.path, op.id, op.auth]);
      expect(ids.has(op.id)).toBe(false);
      ids.add(op.id);
      if (op.auth === "admin") expect(o!.security).toEqual([{ adminApiKey: [] }, { adminToken: [] }]);
    }
  });

  it("is an OpenAPI 3.1 document whose every schema compiles and every $ref resolves", () => {
    const doc = openApiDocument() as { openapi: string; paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: object }> }>; requestBody?: { content: Record<string, { schema: object }> } }>> };
    expect(doc.openapi).toBe("3.1.0");
    const Ajv2020 = ((Ajv2020Module as unknown as { default?: unknown }).default ?? Ajv2020Module) as new (o: object) => { addSchema(s: object, k: string): void; compile(s: object): unknown };
    const ajv = new Ajv2020({ strict: false, validateFormats: false, logger: false });
    ajv.addSchema(doc, "doc");
    let compiled = 0;
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const pointers = [
          ...Object.entries(op.responses).flatMap(([status, r]) => Object.keys(r.content ?? {}).map((m) => ["responses", status, "content", m, "schema"])),
          ...Object.keys(op.requestBody?.content ?? {}).map((m) => ["requestBody", "content", m, "schema"]),
        ];
        for (const segs of pointers) {
          const ptr = ["paths", path, method, ...segs].map((s) => encodeURIComponent(s.replace(/~/g, "~0").replace(/\//g, "~1"))).join("/");
          expect(() => ajv.compile({ $ref: `doc#/${ptr}` })).not.toThrow();
          compiled++;
        }
      }
    }
    expect(compiled).toBeGreaterThan(250);
  });

  it("holds no secret: no example values, no key material", () => {
    const text = JSON.stringify(openApiDocument());
    expect(text.match(/"examples?":/)).toBeNull();
    expect(text.match(/-----BEGIN/)).toBeNull();
  });
});
