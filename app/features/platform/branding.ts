import type { TenantBranding } from "~/db/schema";

/** The branding a tenant has until it sets its own. */
export const DEFAULT_BRANDING = {
  accentHsl: "145 100% 41%",
  successHsl: "151 55% 42%",
  dangerHsl: "358 75% 59%",
  radius: "0.5rem",
  scaling: 1,
  fontFamily: "Inter",
  appearance: "auto",
  lightPrimary: "0 0% 100%",
  lightElevated: "0 0% 98%",
  lightSurface: "220 14% 96%",
  lightBorder: "220 13% 91%",
  darkPrimary: "222 47% 7%",
  darkElevated: "222 40% 11%",
  darkSurface: "222 35% 15%",
  darkBorder: "220 20% 24%",
} as const;

const HSL_RE = /^\d{1,3}(\.\d+)? \d{1,3}(\.\d+)?% \d{1,3}(\.\d+)?%$/;
const RADII = ["0rem", "0", "0.25rem", "0.5rem", "0.75rem", "1rem"];
const FONT_RE = /^[A-Za-z0-9 -]{1,60}$/;

function hsl(value: string | undefined, fallback: string): string {
  return value && HSL_RE.test(value.trim()) ? value.trim() : fallback;
}

/** An accent lighter than 60% needs dark text on it to stay readable. */
export function accentForeground(accentHsl: string): string {
  const lightness = Number(accentHsl.split(" ")[2]?.replace("%", ""));
  return lightness > 60 ? "0 0% 9%" : "0 0% 100%";
}

/** CSS custom properties for a tenant; values are validated so branding cannot inject CSS. */
export function brandingCssVars(b: TenantBranding | null | undefined): Record<string, string> {
  const d = DEFAULT_BRANDING;
  const accent = hsl(b?.accentHsl, d.accentHsl);
  const font = b?.fontFamily && FONT_RE.test(b.fontFamily) ? b.fontFamily : d.fontFamily;
  return {
    "--accent": accent,
    "--accent-foreground": accentForeground(accent),
    "--success": hsl(b?.successHsl, d.successHsl),
    "--danger": hsl(b?.dangerHsl, d.dangerHsl),
    "--radius": b?.radius && RADII.includes(b.radius) ? b.radius : d.radius,
    "--font-brand": `"${font}", ui-sans-serif, system-ui, sans-serif`,
    "--light-primary": hsl(b?.lightPrimary, d.lightPrimary),
    "--light-elevated": hsl(b?.lightElevated, d.lightElevated),
    "--light-surface": hsl(b?.lightSurface, d.lightSurface),
    "--light-border": hsl(b?.lightBorder, d.lightBorder),
    "--dark-primary": hsl(b?.darkPrimary, d.darkPrimary),
    "--dark-elevated": hsl(b?.darkElevated, d.darkElevated),
    "--dark-surface": hsl(b?.darkSurface, d.darkSurface),
    "--dark-border": hsl(b?.darkBorder, d.darkBorder),
  };
}

/** The theme to render: the user's choice wins; 'system' defers to the tenant's appearance. */
export function effectiveTheme(preference: "system" | "light" | "dark", appearance: TenantBranding["appearance"]): "system" | "light" | "dark" {
  if (preference !== "system") return preference;
  if (appearance === "light" || appearance === "dark") return appearance;
  return "system";
}
