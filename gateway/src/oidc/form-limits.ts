/**
 * Limits of the form-posted OAuth endpoints (RFC 6749 section 3.2 bodies): every parser of those
 * bodies (the throttle's, the route table's, the lean lane's) applies the same, so a request is
 * answered the same whichever parses it first.
 */
export const FORM_LIMIT_BYTES = 64 * 1024;
export const FORM_PARAMETER_LIMIT = 100;
