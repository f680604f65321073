import { IamError } from "../../../kit/src/errors.js";

export function dateRange(dateFrom?: number, dateTo?: number): void {
  if (dateFrom !== undefined && dateTo !== undefined && dateFrom > dateTo) {
    throw IamError.invalid("dateFrom", "dateFrom must not be after dateTo");
  }
}
