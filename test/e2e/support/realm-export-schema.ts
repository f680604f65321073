import { readFileSync } from "node:fs";
import { join } from "node:path";
import Ajv2020Module from "ajv/dist/2020.js";

type Validate = ((doc: unknown) => boolean) & { errors?: Array<{ instancePath: string; message?: string }> | null };

const Ajv2020 = (Ajv2020Module as unknown as { default?: typeof Ajv2020Module }).default ?? Ajv2020Module;
let validate: Validate | undefined;

/**
 * Checks a document against docs/realm-export.schema.json, the JSON Schema the repository
 * publishes (checked with ajv, an independent validator, not the zod schema it was emitted from).
 * Returns the problems, [] when valid.
 */
export function exportSchemaProblems(doc: unknown): string[] {
  if (!validate) {
    const schema = JSON.parse(readFileSync(join(process.cwd(), "docs", "realm-export.schema.json"), "utf8")) as object;
    validate = new (Ajv2020 as unknown as new (o: object) => { compile(s: object): Validate })({ allErrors: true, strict: false }).compile(schema);
  }
  return validate(doc) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ""}`);
}
