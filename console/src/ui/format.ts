/** A timestamp of the API (RFC 3339) in the browser's locale; "—" when absent. */
export function when(iso: string | undefined): string {
  if (!iso) return "—";
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString();
}
