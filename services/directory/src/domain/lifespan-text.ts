/**
 * A link's lifetime as its mail states it, in the largest whole unit, as Keycloak's
 * linkExpirationFormatter words it ("12 hours", "5 minutes", "1 day"); a lifetime that is no
 * whole number of a unit reads in the next smaller one.
 */
export function lifespanText(seconds: number): string {
  const units: Array<[number, string]> = [[86_400, "day"], [3_600, "hour"], [60, "minute"], [1, "second"]];
  for (const [size, name] of units) {
    if (seconds >= size && seconds % size === 0) {
      const n = seconds / size;
      return `${n} ${name}${n === 1 ? "" : "s"}`;
    }
  }
  return `${seconds} seconds`;
}
