/**
 * A claim by name as Keycloak's AbstractClaimMapper.getClaimValue reads it: '.' walks into
 * nested objects ("address.locality"), "\." is a literal dot.
 */
export function claimValue(claims: Record<string, unknown>, name: string): unknown {
  const parts = name.split(/(?<!\\)\./).map((p) => p.replace(/\\\./g, "."));
  let at: unknown = claims;
  for (const part of parts) {
    if (typeof at !== "object" || at === null || Array.isArray(at)) return undefined;
    at = (at as Record<string, unknown>)[part];
  }
  return at ?? undefined;
}

/** The claim's values as strings: an array gives each non-null element, a scalar itself. */
export function claimStrings(claims: Record<string, unknown>, name: string): string[] {
  const v = claimValue(claims, name);
  const list = Array.isArray(v) ? v : v === undefined ? [] : [v];
  return list.filter((x) => x !== null && x !== undefined).map((x) => (typeof x === "object" ? JSON.stringify(x) : String(x)));
}

/**
 * Keycloak's AbstractClaimMapper.hasClaimValue: the claim equals the expected value, or, when
 * it is an array, contains it. An empty expected value matches a claim that is present.
 */
export function hasClaimValue(claims: Record<string, unknown>, name: string, expected: string | undefined): boolean {
  const values = claimStrings(claims, name);
  if (!expected) return values.length > 0;
  return values.includes(expected);
}
