/**
 * A brokered login that cannot go on: shown as an error page (never a redirect to the client,
 * whose redirect_uri this request never proved), recorded as an _ERROR event with `eventError`.
 * An account link proved its redirect_uri at its start: it may send `error` back there instead
 * (AccountLinkFlow).
 */
export class BrokerFailure extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
    readonly status: number,
    readonly eventError: string = error,
  ) {
    super(description);
    this.name = "BrokerFailure";
  }
}

export function invalidState(description: string): BrokerFailure {
  return new BrokerFailure("invalid_state", description, 400);
}

export function upstreamFailure(description: string, eventError = "identity_provider_error"): BrokerFailure {
  return new BrokerFailure("identity_provider_error", description, 502, eventError);
}

export function invalidIdToken(why: string): BrokerFailure {
  return new BrokerFailure("invalid_id_token", "The identity provider's ID token was not accepted.", 400, `invalid_id_token: ${why}`);
}
