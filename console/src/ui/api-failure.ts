/** A failed Admin API call in the gateway's error body (`{ error, message, field? }`). */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** The request field the API names, shown next to that field's input. */
    readonly field?: string,
  ) {
    super(message);
  }
}

export function failureFrom(status: number, body: Record<string, unknown>): ApiFailure {
  const message = typeof body.message === "string" && body.message ? body.message : `request failed (HTTP ${status})`;
  const field = typeof body.field === "string" && body.field ? body.field : undefined;
  return new ApiFailure(status, String(body.error ?? "error"), message, field);
}

/** A caught value's message for an alert. */
export function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
