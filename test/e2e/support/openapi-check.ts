import { OpenApiValidator, type RecordedResponse } from "../../support/openapi-validator.js";

/**
 * Every recorded response matches the OpenAPI document (status, media type, body schema). Returns
 * how many were checked, so a caller can assert the check saw the traffic it meant to.
 */
export function expectResponsesDocumented(records: RecordedResponse[]): number {
  const validator = new OpenApiValidator();
  const problems = records.flatMap((r) => validator.problems(r));
  expect(problems).toEqual([]);
  return records.length;
}
