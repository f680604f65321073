import { themeImageUrl } from "../../../services/kit/src/validation/theme-image-url.js";

/** A theme as pages render it: every value already safe for its context (hex colours, https URLs). */
export interface PageTheme {
  name: string;
  primaryColor: string;
  secondaryColor: string;
  backgroundColor: string;
  textColor: string;
  logoUrl: string;
  faviconUrl: string;
  /** Derived from the background: a dark page gets dark surfaces (and no second dark scheme). */
  dark: boolean;
  /** The card's background, its borders, secondary text, and the text on a primary button. */
  surfaceColor: string;
  borderColor: string;
  mutedColor: string;
  onPrimaryColor: string;
}

/** Palettes of the presets named by the directory (services/directory/src/domain/themes.ts). */
type Palette = Pick<PageTheme, "name" | "primaryColor" | "secondaryColor" | "backgroundColor" | "textColor">;

const PRESETS: Record<string, Palette> = {
  tessera: { name: "tessera", primaryColor: "#2f6fed", secondaryColor: "#1e3a8a", backgroundColor: "#f4f6fb", textColor: "#1f2937" },
  midnight: { name: "midnight", primaryColor: "#8b5cf6", secondaryColor: "#c4b5fd", backgroundColor: "#0f172a", textColor: "#e2e8f0" },
  ocean: { name: "ocean", primaryColor: "#0891b2", secondaryColor: "#155e75", backgroundColor: "#ecfeff", textColor: "#083344" },
  minimal: { name: "minimal", primaryColor: "#111827", secondaryColor: "#6b7280", backgroundColor: "#ffffff", textColor: "#111111" },
};

const HEX = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/;

/**
 * The realm's preset with its `theme` overrides on top (DESIGN 5). The directory validated them
 * already; rendering checks again because colours land in a <style> block, where HTML escaping is
 * not enough: only hex colours and the https image URLs the directory accepts (kit
 * theme-image-url.ts, the pages' CSP allows no other) pass, anything else keeps the preset's.
 */
export function resolveTheme(themeName: string, overrides: Record<string, string>): PageTheme {
  const preset = PRESETS[themeName] ?? PRESETS.tessera!;
  const colour = (key: keyof typeof preset, v: string | undefined) => (v && HEX.test(v) ? v : preset[key]);
  const backgroundColor = colour("backgroundColor", overrides.backgroundColor);
  const primaryColor = colour("primaryColor", overrides.primaryColor);
  const dark = luminance(backgroundColor) < 0.2;
  return {
    name: preset.name,
    primaryColor,
    secondaryColor: colour("secondaryColor", overrides.secondaryColor),
    backgroundColor,
    textColor: colour("textColor", overrides.textColor),
    logoUrl: safeUrl(overrides.logoUrl),
    faviconUrl: safeUrl(overrides.faviconUrl),
    dark,
    surfaceColor: dark ? mix(backgroundColor, 0.07) : "#ffffff",
    borderColor: dark ? mix(backgroundColor, 0.18) : "#d5d9e0",
    mutedColor: dark ? mix(backgroundColor, 0.62) : "#5b6472",
    // WCAG 2.x relative luminance: white text on a light primary colour would not be read.
    onPrimaryColor: luminance(primaryColor) > 0.45 ? "#111111" : "#ffffff",
  };
}

/** The rgb channels (0..255) of a validated hex colour (#rgb, #rgba, #rrggbb, #rrggbbaa). */
function channels(hex: string): [number, number, number] {
  const h = hex.slice(1);
  const full = h.length <= 4 ? [...h.slice(0, 3)].map((c) => c + c).join("") : h.slice(0, 6);
  return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16)) as [number, number, number];
}

/** WCAG 2.x relative luminance, 0 (black) to 1 (white). */
function luminance(hex: string): number {
  const [r, g, b] = channels(hex).map((v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** `hex` moved `amount` (0..1) of the way to white, as #rrggbb. */
function mix(hex: string, amount: number): string {
  return `#${channels(hex).map((v) => Math.round(v + (255 - v) * amount).toString(16).padStart(2, "0")).join("")}`;
}

function safeUrl(v: string | undefined): string {
  return (v && themeImageUrl(v)) || "";
}
