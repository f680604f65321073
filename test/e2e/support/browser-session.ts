/**
 * A minimal browser for driving hosted pages over HTTP: a cookie jar (name -> value; every cookie
 * Tessera sets is scoped to /realms/<realm>/, the only paths these tests visit), manual redirects,
 * and form parsing of the rendered HTML.
 */
export interface PageResponse {
  status: number;
  headers: Headers;
  text: string;
  /** The Location header of a redirect. */
  location: string;
  url: string;
}

export interface ParsedForm {
  action: string;
  method: string;
  fields: Record<string, string>;
}

export class BrowserSession {
  readonly cookies = new Map<string, string>();

  constructor(private readonly baseUrl: string) {}

  async get(url: string): Promise<PageResponse> {
    return this.request("GET", url);
  }

  async post(url: string, form: Record<string, string>): Promise<PageResponse> {
    return this.request("POST", url, new URLSearchParams(form).toString());
  }

  /** Fills and submits the page's first form (hidden fields kept, `values` added/overriding). */
  async submit(page: PageResponse, values: Record<string, string>, formIndex = 0): Promise<PageResponse> {
    const form = parseForms(page.text)[formIndex];
    if (!form) throw new Error(`no form on page (status ${page.status}): ${page.text.slice(0, 300)}`);
    const url = new URL(form.action, page.url).href;
    return this.post(url, { ...form.fields, ...values });
  }

  /** Follows redirects while they stay on the server; returns the first response that does not. */
  async follow(res: PageResponse, max = 5): Promise<PageResponse> {
    let current = res;
    for (let i = 0; i < max && current.status >= 300 && current.status < 400; i++) {
      const next = new URL(current.location, current.url);
      if (next.origin !== new URL(this.baseUrl).origin) return current;
      current = await this.get(next.href);
    }
    return current;
  }

  private async request(method: string, url: string, body?: string): Promise<PageResponse> {
    const headers: Record<string, string> = {};
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    if (body !== undefined) headers["content-type"] = "application/x-www-form-urlencoded";
    const res = await fetch(url, { method, headers, redirect: "manual", ...(body !== undefined ? { body } : {}) });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const eq = pair!.indexOf("=");
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (!value || /expires=Thu, 01 Jan 1970/i.test(c)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return { status: res.status, headers: res.headers, text: await res.text(), location: res.headers.get("location") ?? "", url };
  }
}

function decode(v: string): string {
  return v.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, "\"").replace(/&#39;/g, "'").replace(/&amp;/g, "&");
}

/** The forms of a page: action, method, and the name/value of each input (first wins). */
/** A hosted page's own title: the part of <title> before " · <realm>". */
export function titleOf(p: PageResponse): string | undefined {
  return /<title>([^·<]+) ·/.exec(p.text)?.[1]?.trim();
}

export function parseForms(html: string): ParsedForm[] {
  const forms: ParsedForm[] = [];
  for (const m of html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/g)) {
    const attrs = m[1]!;
    const fields: Record<string, string> = {};
    for (const input of m[2]!.matchAll(/<input\b([^>]*)>/g)) {
      const name = /name="([^"]*)"/.exec(input[1]!)?.[1];
      if (!name || name in fields) continue;
      fields[decode(name)] = decode(/value="([^"]*)"/.exec(input[1]!)?.[1] ?? "");
    }
    forms.push({
      action: decode(/action="([^"]*)"/.exec(attrs)?.[1] ?? ""),
      method: (/method="([^"]*)"/.exec(attrs)?.[1] ?? "get").toLowerCase(),
      fields,
    });
  }
  return forms;
}
