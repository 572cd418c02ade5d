/**
 * The page's colour, radius and font variables for the default branding, written out. The root
 * layout falls back to them when its loader gave no data (its error page); a page with data gets
 * its tenant's variables from the server. Written out rather than computed so that the browser
 * bundle does not carry the shade calculation of branding.ts, which only the server needs; a
 * test holds them equal to brandingCssVars(null).
 */
export const DEFAULT_CSS_VARS: Readonly<Record<string, string>> = {
  "--accent": "145 100% 41%",
  "--success-ink-light": "#206f49",
  "--success-ink-dark": "#32ae72",
  "--accent-foreground": "#000000",
  "--accent-ink-light": "#008136",
  "--accent-ink-dark": "#00d157",
  "--danger-ink-light": "#db1f25",
  "--danger-ink-dark": "#e7575b",
  "--danger-strong": "#e12f35",
  "--success": "151 55% 42%",
  "--danger": "358 75% 59%",
  "--radius": "0.5rem",
  "--font-brand": '"Inter Variable", "Inter", ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  "--light-primary": "0 0% 100%",
  "--light-elevated": "0 0% 98%",
  "--light-surface": "220 14% 96%",
  "--light-border": "220 13% 91%",
  "--dark-primary": "222 47% 7%",
  "--dark-elevated": "222 40% 11%",
  "--dark-surface": "222 35% 15%",
  "--dark-border": "220 20% 24%",
};
