import type { ThemePreference } from "~/db/enums";
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

/** The radii a tenant may choose, in rem. */
export const BRAND_RADII = ["0rem", "0.25rem", "0.5rem", "0.75rem", "1rem"] as const;
export { BRAND_APPEARANCES } from "~/db/enums";

const SYSTEM_STACK = 'ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';

/**
 * The fonts a tenant may choose. Each is bundled with the app (the @fontsource imports in
 * app.css) or is the system's own, so no page loads a font from another origin.
 */
export const BRAND_FONTS = [
  { id: "Inter", label: "Inter", stack: `"Inter Variable", "Inter", ${SYSTEM_STACK}` },
  { id: "IBM Plex Sans", label: "IBM Plex Sans", stack: `"IBM Plex Sans Variable", ${SYSTEM_STACK}` },
  { id: "Source Sans 3", label: "Source Sans 3", stack: `"Source Sans 3 Variable", ${SYSTEM_STACK}` },
  { id: "Lora", label: "Lora (serif)", stack: '"Lora Variable", ui-serif, Georgia, serif' },
  { id: "Roboto Slab", label: "Roboto Slab (serif)", stack: '"Roboto Slab Variable", ui-serif, Georgia, serif' },
  { id: "system", label: "System font", stack: SYSTEM_STACK },
] as const;
export type BrandFontId = (typeof BRAND_FONTS)[number]["id"];
export const BRAND_FONT_IDS = BRAND_FONTS.map((f) => f.id) as [BrandFontId, ...BrandFontId[]];

/** The CSS font stack for a stored font id; anything not bundled falls back to the default. */
export function fontStack(id: string | undefined): string {
  return (BRAND_FONTS.find((f) => f.id === id) ?? BRAND_FONTS[0]).stack;
}

export const HEX_COLOUR_RE = /^#[0-9a-fA-F]{6}$/;

/** '#00D16A' → '145 100% 41%' (the HSL triple the theme's custom properties hold), or null. */
export function hexToHsl(hex: string): string | null {
  if (!HEX_COLOUR_RE.test(hex)) return null;
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255) as [number, number, number];
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const l = (max + min) / 2;
  let h = 0;
  let s = 0;
  if (max !== min) {
    const d = max - min;
    s = l > 0.5 ? d / (2 - max - min) : d / (max + min);
    if (max === r) h = (g - b) / d + (g < b ? 6 : 0);
    else if (max === g) h = (b - r) / d + 2;
    else h = (r - g) / d + 4;
    h *= 60;
  }
  return `${Math.round(h)} ${Math.round(s * 100)}% ${Math.round(l * 100)}%`;
}

/** '145 100% 41%' → '#00d16a', for a colour input showing an accent stored only as HSL. */
export function hslToHex(value: string): string {
  const m = /^(\d+(?:\.\d+)?) (\d+(?:\.\d+)?)% (\d+(?:\.\d+)?)%$/.exec(value.trim());
  if (!m) return "#000000";
  const h = Number(m[1]) % 360;
  const s = Math.min(100, Number(m[2])) / 100;
  const l = Math.min(100, Number(m[3])) / 100;
  const a = s * Math.min(l, 1 - l);
  const channel = (n: number) => {
    const k = (n + h / 30) % 12;
    const c = l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(c * 255)
      .toString(16)
      .padStart(2, "0");
  };
  return `#${channel(0)}${channel(8)}${channel(4)}`;
}

function hsl(value: string | undefined, fallback: string): string {
  return value && HSL_RE.test(value.trim()) ? value.trim() : fallback;
}

/** The strongest wash of the success colour that success text sits on (`bg-success/15`). */
export const SUCCESS_TINT = 0.15;

/** WCAG's minimum contrast for body text (success criterion 1.4.3, level AA). */
export const MIN_TEXT_CONTRAST = 4.5;

function rgbOf(hex: string): [number, number, number] {
  return [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];
}

function hexOf(rgb: [number, number, number]): string {
  return `#${rgb
    .map((c) =>
      Math.round(Math.min(255, Math.max(0, c)))
        .toString(16)
        .padStart(2, "0"),
    )
    .join("")}`;
}

/** WCAG relative luminance of a #rrggbb colour, 0 (black) to 1 (white). */
export function relativeLuminance(hex: string): number {
  const [r, g, b] = rgbOf(hex).map((c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG contrast ratio of two #rrggbb colours, 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/**
 * The text colour for a background of `colour`: black or white, whichever contrasts more. One of
 * the two always reaches 4.5:1 (the worst case, a mid grey, still gives about 4.58:1).
 */
export function readableOn(colour: string): "#000000" | "#ffffff" {
  return contrastRatio(colour, "#000000") >= contrastRatio(colour, "#ffffff") ? "#000000" : "#ffffff";
}

/** #rrggbb → unrounded HSL (h in degrees, s and l from 0 to 1). */
function hslOf(hex: string): [number, number, number] {
  const [r, g, b] = rgbOf(hex).map((c) => c / 255) as [number, number, number];
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const l = (max + min) / 2;
  if (max === min) return [0, 0, l];
  const d = max - min;
  const s = l > 0.5 ? d / (2 - max - min) : d / (max + min);
  let h = max === r ? (g - b) / d + (g < b ? 6 : 0) : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
  h *= 60;
  return [h, s, l];
}

function hexFromHsl(h: number, s: number, l: number): string {
  const a = s * Math.min(l, 1 - l);
  const channel = (n: number) => {
    const k = (n + h / 30) % 12;
    return (l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))) * 255;
  };
  return hexOf([channel(0), channel(8), channel(4)]);
}

/** `colour` laid over `bg` at `share` opacity (0 to 1), as #rrggbb. */
function mixed(colour: string, bg: string, share: number): string {
  const [a, b] = [rgbOf(colour), rgbOf(bg)];
  return hexOf([0, 1, 2].map((i) => a[i]! * share + b[i]! * (1 - share)) as [number, number, number]);
}

/**
 * `accent` as a text colour readable on every one of `backgrounds` (the page's surfaces in one
 * theme): kept as it is when it already reaches 4.5:1 on all of them, otherwise darkened (light
 * backgrounds) or lightened (dark backgrounds) in HSL, keeping hue and saturation, just far enough.
 * Backgrounds too close to mid grey for any shade to reach 4.5:1 get black or white, the best there is.
 */
export function accentAsText(accent: string, backgrounds: string | readonly string[], { tint = 0 }: { tint?: number } = {}): string {
  const bgs = (typeof backgrounds === "string" ? [backgrounds] : [...backgrounds]).filter((c) => HEX_COLOUR_RE.test(c));
  const colour = accent.toLowerCase();
  if (bgs.length === 0) return colour;
  // With `tint`, the text must also read on a light wash of itself over each background (a status
  // panel's `bg-success/15`).
  const worst = (c: string) =>
    Math.min(...bgs.flatMap((bg) => (tint > 0 ? [contrastRatio(c, bg), contrastRatio(c, mixed(c, bg, tint))] : [contrastRatio(c, bg)])));
  if (worst(colour) >= MIN_TEXT_CONTRAST) return colour;
  // Darken on light backgrounds, lighten on dark ones: whichever way the backgrounds leave more room.
  const darken = Math.min(...bgs.map((bg) => contrastRatio(bg, "#000000"))) >= Math.min(...bgs.map((bg) => contrastRatio(bg, "#ffffff")));
  const [h, s, l] = hslOf(colour);
  // Luminance grows with HSL lightness at a fixed hue and saturation, so the first step that passes is the closest shade.
  const STEPS = 200;
  for (let i = 1; i <= STEPS; i++) {
    const next = darken ? l - (l * i) / STEPS : l + ((1 - l) * i) / STEPS;
    const candidate = hexFromHsl(h, s, next);
    if (worst(candidate) >= MIN_TEXT_CONTRAST) return candidate;
  }
  return worst("#000000") >= worst("#ffffff") ? "#000000" : "#ffffff";
}

/**
 * The shades derived from the tenant's accent and danger colours so that text stays readable
 * whatever colours were picked (computed here, never taken from the tenant): the text on an accent
 * background, the accent, danger and success colours as text on each theme's surfaces, and the danger
 * background under white text. app.css picks the -light or -dark one for the theme in force.
 */
export function readableShades(
  accentHex: string,
  dangerHex: string,
  lightBgs: readonly string[],
  darkBgs: readonly string[],
  successHex?: string,
): Record<string, string> {
  return {
    ...(successHex
      ? {
          "--success-ink-light": accentAsText(successHex, lightBgs, { tint: SUCCESS_TINT }),
          "--success-ink-dark": accentAsText(successHex, darkBgs, { tint: SUCCESS_TINT }),
        }
      : {}),
    "--accent-foreground": readableOn(accentHex),
    "--accent-ink-light": accentAsText(accentHex, lightBgs),
    "--accent-ink-dark": accentAsText(accentHex, darkBgs),
    "--danger-ink-light": accentAsText(dangerHex, lightBgs),
    "--danger-ink-dark": accentAsText(dangerHex, darkBgs),
    "--danger-strong": accentAsText(dangerHex, "#ffffff"),
  };
}

/** CSS custom properties for a tenant; values are validated so branding cannot inject CSS. */
export function brandingCssVars(b: TenantBranding | null | undefined): Record<string, string> {
  // Every page of a tenant asks for the same variables, and working out the readable shades is
  // about a millisecond of CPU: they are kept per branding for the isolate's life.
  const key = b ? JSON.stringify(b) : "";
  const cached = cssVarsCache.get(key);
  if (cached) return { ...cached };
  const vars = computeCssVars(b);
  if (cssVarsCache.size >= CSS_VARS_CACHE_SIZE) cssVarsCache.delete(cssVarsCache.keys().next().value as string);
  cssVarsCache.set(key, vars);
  return { ...vars };
}

/** Brandings whose variables are kept (the oldest goes first): one isolate serves a few tenants at a time. */
const CSS_VARS_CACHE_SIZE = 64;
const cssVarsCache = new Map<string, Record<string, string>>();

function computeCssVars(b: TenantBranding | null | undefined): Record<string, string> {
  const d = DEFAULT_BRANDING;
  const accent = hsl(b?.accentHsl, d.accentHsl);
  const danger = hsl(b?.dangerHsl, d.dangerHsl);
  const success = hsl(b?.successHsl, d.successHsl);
  const light = [hsl(b?.lightPrimary, d.lightPrimary), hsl(b?.lightElevated, d.lightElevated), hsl(b?.lightSurface, d.lightSurface)].map(hslToHex);
  const dark = [hsl(b?.darkPrimary, d.darkPrimary), hsl(b?.darkElevated, d.darkElevated), hsl(b?.darkSurface, d.darkSurface)].map(hslToHex);
  return {
    "--accent": accent,
    ...readableShades(hslToHex(accent), hslToHex(danger), light, dark, hslToHex(success)),
    "--success": success,
    "--danger": danger,
    "--radius": b?.radius && RADII.includes(b.radius) ? b.radius : d.radius,
    "--font-brand": fontStack(b?.fontFamily),
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
export function effectiveTheme(preference: ThemePreference, appearance: TenantBranding["appearance"]): ThemePreference {
  if (preference !== "system") return preference;
  if (appearance === "light" || appearance === "dark") return appearance;
  return "system";
}
