import { fromJson, ScalarType, type DescMessage, type MessageShape, type JsonValue } from "@bufbuild/protobuf";
import { GatewayError } from "./rpc-errors.js";

/**
 * Turns an Admin API JSON body into the request message of an RPC. Unknown and read-only fields
 * are a 400 naming the field (never silently dropped), and so is a value of the wrong type.
 */
export function parseBody<S extends DescMessage>(schema: S, body: unknown, internalFields: string[] = []): MessageShape<S> {
  const obj = requireObject(body);
  const byJsonName = new Map(schema.fields.map((f) => [f.jsonName, f]));
  for (const [key, value] of Object.entries(obj)) {
    const field = byJsonName.get(key);
    if (!field || internalFields.includes(key)) {
      throw new GatewayError(400, "unknown_field", `unknown or read-only field: ${key}`, key);
    }
    try {
      fromJson(schema, { [key]: value } as JsonValue);
    } catch {
      throw new GatewayError(400, "invalid_field", `${key} must be ${describeType(field)}`, key);
    }
  }
  return fromJson(schema, obj as JsonValue);
}

export function requireObject(body: unknown): Record<string, unknown> {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new GatewayError(400, "invalid_request", "request body must be a JSON object");
  }
  return body as Record<string, unknown>;
}

function describeType(field: DescMessage["fields"][number]): string {
  switch (field.fieldKind) {
    case "map":
      return "an object of strings";
    case "list":
      return "an array";
    case "message":
      // A ListValue reads as a JSON array (proto3 JSON mapping).
      return field.message.typeName === "google.protobuf.ListValue" ? "an array" : "an object";
    case "enum":
      return "one of the documented values";
    case "scalar":
      if (field.scalar === ScalarType.BOOL) return "a boolean";
      if (field.scalar === ScalarType.STRING) return "a string";
      if (field.scalar === ScalarType.DOUBLE || field.scalar === ScalarType.FLOAT) return "a number";
      return "an integer";
  }
}
