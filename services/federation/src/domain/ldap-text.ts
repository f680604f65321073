/**
 * LDAP string rules the service depends on: filter values escaped per RFC 4515 section 3 and
 * DNs checked and escaped per RFC 4514. A username typed at the login page reaches a search
 * filter only through `escapeFilterValue`, so `*`, `(`, `)`, `\` and NUL match themselves.
 */

/** RFC 4515 section 3: `*`, `(`, `)`, `\` and NUL become `\2a`, `\28`, `\29`, `\5c`, `\00`. */
export function escapeFilterValue(value: string): string {
  return value.replace(/[*()\\\u0000]/g, (c) => `\\${c.charCodeAt(0).toString(16).padStart(2, "0")}`);
}

/** An equality filter `(attr=value)` with the value escaped. `attr` must already be a checked attribute name. */
export function equalityFilter(attr: string, value: string): string {
  return `(${attr}=${escapeFilterValue(value)})`;
}

/** RFC 4512 section 1.4 attribute descriptions: a keystring (letter, then letters, digits, hyphens) or a numeric OID. */
export function isAttributeName(s: string): boolean {
  return /^(?:[A-Za-z][A-Za-z0-9-]*|\d+(?:\.\d+)+)(?:;[A-Za-z0-9-]+)*$/.test(s);
}

/**
 * RFC 4514 section 2.4: escapes an attribute value for use in a DN (leading space or `#`,
 * trailing space, and `"`, `+`, `,`, `;`, `<`, `>`, `\`, NUL anywhere).
 */
export function escapeDnValue(value: string): string {
  let out = value.replace(/[\\"+,;<>]/g, (c) => `\\${c}`).replace(/\u0000/g, "\\00");
  if (out.startsWith(" ") || out.startsWith("#")) out = `\\${out}`;
  if (out.endsWith(" ") && !out.endsWith("\\ ")) out = `${out.slice(0, -1)}\\ `;
  return out;
}

/**
 * Whether `dn` is a distinguished name per RFC 4514 section 3: RDNs separated by `,`, each one or
 * more `type=value` joined by `+`, values either `#` hex (BER) or strings whose special characters
 * are escaped (`\` with a special character or two hex digits). The empty DN (the root) is refused:
 * no base or bind DN the service uses is the root.
 */
export function isDistinguishedName(dn: string): boolean {
  if (!dn.trim()) return false;
  let i = 0;
  const n = dn.length;
  const type = /^(?:[A-Za-z][A-Za-z0-9-]*|\d+(?:\.\d+)*)/;
  for (;;) {
    // attributeTypeAndValue
    while (i < n && dn[i] === " ") i++;
    const m = type.exec(dn.slice(i));
    if (!m) return false;
    i += m[0].length;
    while (i < n && dn[i] === " ") i++;
    if (dn[i] !== "=") return false;
    i++;
    if (dn[i] === "#") {
      const hex = /^#(?:[0-9A-Fa-f]{2})+/.exec(dn.slice(i));
      if (!hex) return false;
      i += hex[0].length;
    } else {
      while (i < n && dn[i] !== "," && dn[i] !== "+") {
        const c = dn[i] as string;
        if (c === "\\") {
          const next = dn[i + 1];
          if (next === undefined) return false;
          if (/[0-9A-Fa-f]/.test(next)) {
            if (!/[0-9A-Fa-f]/.test(dn[i + 2] ?? "")) return false;
            i += 3;
          } else if (' "#+,;<=>\\'.includes(next)) {
            i += 2;
          } else {
            return false;
          }
          continue;
        }
        // Unescaped, these end or break the value (section 3): a string value cannot hold them.
        if (c === '"' || c === ";" || c === "<" || c === ">" || c === "\u0000") return false;
        i++;
      }
    }
    if (i >= n) return true;
    if (dn[i] === "," || dn[i] === "+") {
      i++;
      continue;
    }
    return false;
  }
}
