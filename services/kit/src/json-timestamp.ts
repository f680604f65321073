/**
 * An instant (epoch ms) as protobuf's JSON mapping writes a google.protobuf.Timestamp: RFC 3339
 * in UTC, with no fraction when the milliseconds are zero and three digits otherwise. The Admin
 * API answers with that mapping, so a view built here (an admin event's representation, above
 * all) shows the very string the response does; `toISOString` alone writes ".000Z" on a whole
 * second, where the response has "Z".
 */
export function jsonTimestamp(ms: number): string {
  const iso = new Date(ms).toISOString();
  return iso.endsWith(".000Z") ? `${iso.slice(0, -5)}Z` : iso;
}
