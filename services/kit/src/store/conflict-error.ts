import { IamError } from "../errors.js";

/** The IamError for a unique violation (DESIGN 4: duplicate key -> alreadyExists). */
export function conflictError(collection: string, field: string | undefined): IamError {
  return new IamError({
    code: "alreadyExists",
    reason: "conflict",
    message: field ? `${collection}: a document with this ${field} already exists` : `${collection}: duplicate document`,
    ...(field ? { field } : {}),
  });
}
