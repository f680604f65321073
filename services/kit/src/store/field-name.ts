import { IamError } from "../errors.js";

/**
 * Names that reach a query: field names (filters, sorts, indexes, changes) and collection names.
 * The sqlite adapter splices them into SQL as JSON paths and identifiers (values are always bound),
 * and FerretDB refuses keys with `.` or a leading `$`, so one strict shape keeps both adapters safe
 * and identical.
 */
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function assertFieldName(name: string): string {
  if (typeof name !== "string" || !NAME.test(name)) {
    throw IamError.invalid(String(name), `invalid field name ${JSON.stringify(name)}`);
  }
  return name;
}

export function assertCollectionName(name: string): string {
  if (typeof name !== "string" || !NAME.test(name)) {
    throw IamError.invalid("collection", `invalid collection name ${JSON.stringify(name)}`);
  }
  return name;
}
