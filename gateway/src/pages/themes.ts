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
}

/** Palettes of the presets named by the directory (services/directory/src/domain/themes.ts). */
const PRESETS: Record<string, Omit<PageTheme, "logoUrl" | "faviconUrl">> = {
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
  return {
    name: preset.name,
    primaryColor: colour("primaryColor", overrides.primaryColor),
    secondaryColor: colour("secondaryColor", overrides.secondaryColor),
    backgroundColor: colour("backgroundColor", overrides.backgroundColor),
    textColor: colour("textColor", overrides.textColor),
    logoUrl: safeUrl(overrides.logoUrl),
    faviconUrl: safeUrl(overrides.faviconUrl),
  };
}

function safeUrl(v: string | undefined): string {
  return (v && themeImageUrl(v)) || "";
}
