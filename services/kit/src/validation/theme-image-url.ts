/** The longest logo or favicon URL a realm theme may name. */
export const THEME_IMAGE_URL_MAX_LENGTH = 2048;

/**
 * A realm theme's image URL (`logoUrl`, `faviconUrl`) as the hosted pages can show it: absolute
 * https, at most THEME_IMAGE_URL_MAX_LENGTH characters. The pages' Content-Security-Policy is
 * `img-src 'self' data: https:` (gateway/src/pages/content-security-policy.ts), so a browser blocks
 * an http image (mixed content too, on an https page) and the logo would silently vanish. Returns
 * the URL as WHATWG serialises it, or undefined when it is not one. The directory refuses what
 * fails here when a realm is written; the gateway checks again when it renders (themes.ts).
 */
export function themeImageUrl(value: string): string | undefined {
  if (value.length > THEME_IMAGE_URL_MAX_LENGTH) return undefined;
  try {
    const u = new URL(value);
    return u.protocol === "https:" ? u.href : undefined;
  } catch {
    return undefined;
  }
}
