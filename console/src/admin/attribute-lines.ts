import { ApiFailure } from "../ui/api-failure";

/** Attributes as `key=value` lines, one value a line (a key repeated holds several values). */
export function attributesText(a: Record<string, string[]> | undefined): string {
  return Object.entries(a ?? {}).flatMap(([k, vs]) => vs.map((v) => `${k}=${v}`)).join("\n");
}

export function attributesOf(text: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const line of text.split("\n").map((l) => l.trim()).filter(Boolean)) {
    const at = line.indexOf("=");
    // Checked here because the API would only see a malformed object; the message goes beside the field.
    if (at < 1) throw new ApiFailure(400, "invalid_request", `"${line.slice(0, 64)}" is not a key=value line`, "attributes");
    (out[line.slice(0, at).trim()] ??= []).push(line.slice(at + 1).trim());
  }
  return out;
}
