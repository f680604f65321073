/**
 * The built-in theme presets (spec 2.1 themeName, 4.1 list themes). The gateway renders hosted pages
 * with the preset's palette, then the realm's `theme` overrides on top.
 */
export const THEME_NAMES = ["tessera", "midnight", "ocean", "minimal"] as const;
export const DEFAULT_THEME = "tessera";

/** Keys a realm's `theme` object may override, and how each is checked. */
export const THEME_OVERRIDE_KEYS = {
  logoUrl: "url",
  faviconUrl: "url",
  primaryColor: "colour",
  secondaryColor: "colour",
  backgroundColor: "colour",
  textColor: "colour",
} as const;
