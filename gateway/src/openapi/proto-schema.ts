import { ScalarType, type DescEnum, type DescField, type DescMessage } from "@bufbuild/protobuf";

/** A JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1 section 4.8.24). */
export type JsonSchema = Record<string, unknown>;

/**
 * How a message travels:
 * - `reply`: written by `toJson(schema, m, { alwaysEmitImplicit: true })`, so every field with
 *   implicit presence is there; a message field or a proto3 `optional` one only when set.
 * - `sparse`: written by plain `toJson` (the sessions), so any field may be absent.
 * - `input`: a request body read by `parseBody` (json-input.ts): any subset of the fields, and an
 *   unknown one is a 400. A 64-bit integer is accepted as a number or a decimal string.
 */
export type Mode = "reply" | "sparse" | "input";

/** Per message (full proto name), JSON field names. */
export type FieldLists = Record<string, string[]>;

/**
 * JSON Schemas of protobuf messages as the gateway writes and reads them (the proto3 JSON mapping,
 * https://protobuf.dev/programming-guides/json/). The Admin API's bodies are these messages, so
 * deriving their schemas from the same descriptors keeps the document true as fields are added.
 */
export class ProtoSchemas {
  private readonly components: Record<string, JsonSchema> = {};
  private readonly names = new Map<string, string>();

  /**
   * @param omissions fields a route drops from a reply when empty, so they are not required
   * @param internal fields a route refuses in a body (set by the gateway itself); `*Present`
   *   fields (whether the caller sent a list or map at all) are always internal
   */
  constructor(private readonly omissions: FieldLists = {}, private readonly internal: FieldLists = {}) {}

  /** A `$ref` to the component of `message` in `mode`, registering it (and what it names) once. */
  ref(message: DescMessage, mode: Mode = "reply"): JsonSchema {
    const wkt = wellKnown(message, mode);
    if (wkt) return wkt;
    const key = `${message.typeName}|${mode}`;
    let name = this.names.get(key);
    if (!name) {
      name = this.freeName(message, mode);
      this.names.set(key, name);
      this.components[name] = {}; // reserved first: a message may name itself
      this.components[name] = this.object(message, mode);
    }
    return { $ref: `#/components/schemas/${name}` };
  }

  /** The reply schema of `message`, inline, with more required properties (a route adds to the message). */
  extended(message: DescMessage, more: Record<string, JsonSchema>): JsonSchema {
    const base = this.object(message, "reply");
    return {
      ...base, properties: { ...(base.properties as object), ...more },
      required: [...((base.required as string[] | undefined) ?? []), ...Object.keys(more)],
    };
  }

  /** Every component registered so far, by name. */
  all(): Record<string, JsonSchema> {
    return this.components;
  }

  /**
   * The short name. The same message in a second mode gets the mode's suffix ("LockedUserInput");
   * another package's message of the same name gets its package's name ("TokenSigningKey").
   */
  private freeName(message: DescMessage, mode: Mode): string {
    const pkg = message.typeName.split(".").slice(-3, -2)[0] ?? "";
    const prefixed = `${pkg.charAt(0).toUpperCase()}${pkg.slice(1)}${message.name}`;
    const suffix = mode === "input" ? "Input" : mode === "sparse" ? "Summary" : "Reply";
    const otherMode = [...this.names.keys()].some((k) => k.startsWith(`${message.typeName}|`));
    const candidates = otherMode ? [`${message.name}${suffix}`, `${prefixed}${suffix}`] : [message.name, prefixed];
    for (const c of candidates) if (!(c in this.components)) return c;
    throw new Error(`no free schema name for ${message.typeName} (${mode})`);
  }

  private object(message: DescMessage, mode: Mode): JsonSchema {
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    const omitted = new Set(this.omissions[message.typeName] ?? []);
    const internal = new Set(this.internal[message.typeName] ?? []);
    for (const field of message.fields) {
      if (mode === "input" && (internal.has(field.jsonName) || /^[a-z]\w*Present$/.test(field.jsonName))) continue;
      properties[field.jsonName] = this.field(field, mode);
      // FeatureSet.FieldPresence IMPLICIT is 2: emitted even when empty under alwaysEmitImplicit.
      if (mode === "reply" && field.presence === 2 && !field.oneof && !omitted.has(field.jsonName)) required.push(field.jsonName);
    }
    return {
      type: "object", description: `\`${message.typeName}\``, properties,
      ...(required.length > 0 ? { required } : {}), additionalProperties: false,
    };
  }

  private field(field: DescField, mode: Mode): JsonSchema {
    switch (field.fieldKind) {
      case "scalar":
        return scalar(field.scalar, mode);
      case "enum":
        return enumSchema(field.enum);
      case "message":
        return this.ref(field.message, mode);
      case "list":
        return {
          type: "array",
          items: field.listKind === "scalar" ? scalar(field.scalar, mode) : field.listKind === "enum" ? enumSchema(field.enum) : this.ref(field.message, mode),
        };
      case "map":
        return {
          type: "object",
          additionalProperties: field.mapKind === "scalar" ? scalar(field.scalar, mode) : field.mapKind === "enum" ? enumSchema(field.enum) : this.ref(field.message, mode),
        };
    }
  }
}

function scalar(type: ScalarType, mode: Mode): JsonSchema {
  switch (type) {
    case ScalarType.STRING:
      return { type: "string" };
    case ScalarType.BOOL:
      return { type: "boolean" };
    case ScalarType.BYTES:
      return { type: "string", contentEncoding: "base64" };
    case ScalarType.DOUBLE:
    case ScalarType.FLOAT:
      return { type: "number" };
    case ScalarType.INT64:
    case ScalarType.SINT64:
    case ScalarType.SFIXED64:
    case ScalarType.UINT64:
    case ScalarType.FIXED64:
      // The proto3 JSON mapping writes 64-bit integers as decimal strings and reads either form.
      return mode === "input" ? { type: ["integer", "string"], pattern: "^-?[0-9]+$" } : { type: "string", pattern: "^-?[0-9]+$", format: "int64" };
    default:
      return { type: "integer", format: type === ScalarType.UINT32 || type === ScalarType.FIXED32 ? "uint32" : "int32" };
  }
}

function enumSchema(desc: DescEnum): JsonSchema {
  return { type: "string", enum: desc.values.map((v) => v.name) };
}

function wellKnown(message: DescMessage, mode: Mode): JsonSchema | undefined {
  switch (message.typeName) {
    case "google.protobuf.Timestamp":
      return { type: "string", format: "date-time" };
    case "google.protobuf.Duration":
      return { type: "string", pattern: "^-?[0-9]+(\\.[0-9]+)?s$" };
    case "google.protobuf.Struct":
      return { type: "object" };
    case "google.protobuf.Value":
      return {};
    case "google.protobuf.ListValue":
      return { type: "array" };
    case "google.protobuf.Empty":
      return { type: "object", additionalProperties: false };
    case "google.protobuf.StringValue":
      return { type: "string" };
    case "google.protobuf.BoolValue":
      return { type: "boolean" };
    case "google.protobuf.Int32Value":
    case "google.protobuf.UInt32Value":
      return { type: "integer" };
    case "google.protobuf.Int64Value":
    case "google.protobuf.UInt64Value":
      return scalar(ScalarType.INT64, mode);
    default:
      return undefined;
  }
}
