import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  accentAsText,
  brandingCssVars,
  contrastRatio,
  DEFAULT_BRANDING,
  effectiveTheme,
  fontStack,
  hexToHsl,
  hslToHex,
  readableOn,
  relativeLuminance,
  SUCCESS_TINT,
} from "./branding";

describe("branding", () => {
  it("falls back to the default branding", () => {
    const vars = brandingCssVars({});
    expect(vars["--accent"]).toBe("145 100% 41%");
    expect(vars["--success"]).toBe("151 55% 42%");
    expect(vars["--danger"]).toBe("358 75% 59%");
    expect(vars["--radius"]).toBe("0.5rem");
    expect(vars["--font-brand"]).toContain("Inter");
  });
  it("refuses values that could inject CSS", () => {
    const vars = brandingCssVars({ accentHsl: "0 0% 0%; background:url(x)", radius: "9999px", fontFamily: "x;}" });
    expect(vars["--accent"]).toBe("145 100% 41%");
    expect(vars["--radius"]).toBe("0.5rem");
    expect(vars["--font-brand"]).toContain("Inter");
  });
  it("lets the user's choice win over the tenant's appearance", () => {
    expect(effectiveTheme("light", "dark")).toBe("light");
    expect(effectiveTheme("system", "dark")).toBe("dark");
    expect(effectiveTheme("system", "auto")).toBe("system");
  });
  it("converts the editor's hex accent to the theme's HSL and back", () => {
    expect(hexToHsl("#1D4ED8")).toBe("224 76% 48%");
    expect(hexToHsl("#FFFFFF")).toBe("0 0% 100%");
    expect(hexToHsl("#00d16a")).toBe("150 100% 41%");
    expect(hexToHsl("#12345G")).toBeNull();
    expect(hexToHsl("#fff")).toBeNull();
    expect(hslToHex("0 0% 100%")).toBe("#ffffff");
    expect(hslToHex("224 76% 48%")).toBe("#1d4fd7");
    expect(hslToHex("not hsl")).toBe("#000000");
  });
  it("serves only bundled fonts: an unknown font falls back to Inter", () => {
    expect(fontStack("Lora")).toContain('"Lora Variable"');
    expect(brandingCssVars({ fontFamily: "Roboto Slab" })["--font-brand"]).toContain('"Roboto Slab Variable"');
    expect(fontStack("Comic Sans MS")).toContain('"Inter Variable"');
    expect(fontStack(undefined)).toContain('"Inter Variable"');
  });
});

const hexColour = fc
  .tuple(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 }))
  .map((rgb) => `#${rgb.map((c) => c.toString(16).padStart(2, "0")).join("")}`);
const d = DEFAULT_BRANDING;
const LIGHT = [d.lightPrimary, d.lightElevated, d.lightSurface].map(hslToHex);
const DARK = [d.darkPrimary, d.darkElevated, d.darkSurface].map(hslToHex);

describe("readable shades", () => {
  it("measures contrast the WCAG way", () => {
    expect(relativeLuminance("#000000")).toBe(0);
    expect(relativeLuminance("#ffffff")).toBe(1);
    expect(contrastRatio("#000000", "#ffffff")).toBeCloseTo(21, 5);
    expect(contrastRatio("#ffffff", "#000000")).toBeCloseTo(21, 5);
    // The brand green the review measured: white on it, and it on white, are about 2.04:1.
    expect(contrastRatio("#00d157", "#ffffff")).toBeGreaterThan(2);
    expect(contrastRatio("#00d157", "#ffffff")).toBeLessThan(2.1);
  });

  it("puts black text on the brand green #00d157, at well over 4.5:1", () => {
    expect(readableOn("#00d157")).toBe("#000000");
    expect(contrastRatio("#00d157", "#000000")).toBeGreaterThanOrEqual(4.5);
    expect(readableOn("#1d4ed8")).toBe("#ffffff");
  });

  it("darkens #00d157 for links on white until it reaches 4.5:1, and keeps its hue", () => {
    const ink = accentAsText("#00d157", "#ffffff");
    expect(contrastRatio(ink, "#ffffff")).toBeGreaterThanOrEqual(4.5);
    // The closest shade: one step lighter would fail.
    expect(contrastRatio(ink, "#ffffff")).toBeLessThan(4.8);
    expect(Number(hexToHsl(ink)?.split(" ")[0])).toBeCloseTo(145, -1);
    expect(relativeLuminance(ink)).toBeLessThan(relativeLuminance("#00d157"));
  });

  it("leaves an accent alone when it already reads well, and lightens it on dark pages", () => {
    expect(accentAsText("#1d4ed8", "#ffffff")).toBe("#1d4ed8");
    const ink = accentAsText("#1d4ed8", DARK);
    expect(relativeLuminance(ink)).toBeGreaterThan(relativeLuminance("#1d4ed8"));
    for (const bg of DARK) expect(contrastRatio(ink, bg)).toBeGreaterThanOrEqual(4.5);
  });

  it("turns the default danger red into shades that reach 4.5:1 (it was 3.91:1 under white text)", () => {
    const vars = brandingCssVars({});
    const red = hslToHex(d.dangerHsl);
    expect(contrastRatio(red, "#ffffff")).toBeLessThan(4.5);
    expect(contrastRatio(vars["--danger-strong"]!, "#ffffff")).toBeGreaterThanOrEqual(4.5);
    for (const bg of LIGHT) expect(contrastRatio(vars["--danger-ink-light"]!, bg)).toBeGreaterThanOrEqual(4.5);
    for (const bg of DARK) expect(contrastRatio(vars["--danger-ink-dark"]!, bg)).toBeGreaterThanOrEqual(4.5);
  });

  it("turns the default success green into text shades that reach 4.5:1 in both themes (it was 3.3:1 on white)", () => {
    const vars = brandingCssVars({});
    expect(contrastRatio(hslToHex(d.successHsl), "#ffffff")).toBeLessThan(4.5);
    for (const bg of LIGHT) expect(contrastRatio(vars["--success-ink-light"]!, bg)).toBeGreaterThanOrEqual(4.5);
    for (const bg of DARK) expect(contrastRatio(vars["--success-ink-dark"]!, bg)).toBeGreaterThanOrEqual(4.5);
    // Also on a status panel's wash of the same colour (bg-success/15) over each surface.
    const wash = (ink: string, bg: string) =>
      `#${[1, 3, 5]
        .map((i) =>
          Math.round(parseInt(ink.slice(i, i + 2), 16) * SUCCESS_TINT + parseInt(bg.slice(i, i + 2), 16) * (1 - SUCCESS_TINT))
            .toString(16)
            .padStart(2, "0"),
        )
        .join("")}`;
    for (const bg of LIGHT) expect(contrastRatio(vars["--success-ink-light"]!, wash(vars["--success-ink-light"]!, bg))).toBeGreaterThanOrEqual(4.5);
    for (const bg of DARK) expect(contrastRatio(vars["--success-ink-dark"]!, wash(vars["--success-ink-dark"]!, bg))).toBeGreaterThanOrEqual(4.5);
    // A tenant's own success colour gets the same treatment.
    const own = brandingCssVars({ successHsl: "90 100% 60%" });
    for (const bg of LIGHT) expect(contrastRatio(own["--success-ink-light"]!, bg)).toBeGreaterThanOrEqual(4.5);
  });

  it("gives every brand colour readable pairs in both themes", () => {
    fc.assert(
      fc.property(hexColour, (accent) => {
        expect(contrastRatio(accent, readableOn(accent))).toBeGreaterThanOrEqual(4.5);
        const light = accentAsText(accent, LIGHT);
        const dark = accentAsText(accent, DARK);
        const strong = accentAsText(accent, "#ffffff");
        for (const bg of LIGHT) expect(contrastRatio(light, bg)).toBeGreaterThanOrEqual(4.5);
        for (const bg of DARK) expect(contrastRatio(dark, bg)).toBeGreaterThanOrEqual(4.5);
        expect(contrastRatio(strong, "#ffffff")).toBeGreaterThanOrEqual(4.5);
      }),
      { numRuns: 2000 },
    );
  });

  it("derives the shades from the stored accent in the CSS variables, whatever the tenant sent", () => {
    fc.assert(
      fc.property(hexColour, hexColour, (accent, danger) => {
        const vars = brandingCssVars({ accentHsl: hexToHsl(accent)!, dangerHsl: hexToHsl(danger)! });
        const shown = hslToHex(vars["--accent"]!);
        expect(contrastRatio(shown, vars["--accent-foreground"]!)).toBeGreaterThanOrEqual(4.5);
        for (const bg of LIGHT) expect(contrastRatio(vars["--accent-ink-light"]!, bg)).toBeGreaterThanOrEqual(4.5);
        for (const bg of DARK) expect(contrastRatio(vars["--accent-ink-dark"]!, bg)).toBeGreaterThanOrEqual(4.5);
        expect(contrastRatio(vars["--danger-strong"]!, "#ffffff")).toBeGreaterThanOrEqual(4.5);
      }),
      { numRuns: 500 },
    );
  });

  it("for the default accent #00d157: black on the accent, a darker green for links on white", () => {
    const vars = brandingCssVars({ accentHsl: hexToHsl("#00d157")! });
    expect(vars["--accent-foreground"]).toBe("#000000");
    expect(vars["--accent-ink-light"]).toBe(accentAsText(hslToHex(vars["--accent"]!), LIGHT));
    expect(contrastRatio(vars["--accent-ink-light"]!, "#ffffff")).toBeGreaterThanOrEqual(4.5);
    expect(vars["--accent-ink-light"]).not.toBe(hslToHex(vars["--accent"]!));
  });

  it("falls back to the best of black and white on a background no shade can reach 4.5:1 on", () => {
    // A light grey and a dark grey together: nothing is 4.5:1 from both.
    expect(["#000000", "#ffffff"]).toContain(accentAsText("#00d157", ["#a0a0a0", "#505050"]));
  });
});

/** The custom properties of the stylesheet's `:root` block that declares the accent (the default branding's). */
function stylesheetDefaults(): Record<string, string> {
  const css = readFileSync(new URL("../../app.css", import.meta.url), "utf8");
  const block = [...css.matchAll(/:root\s*\{([^}]*)\}/g)].map((m) => m[1]!).find((b) => /--accent:/.test(b)) ?? "";
  return Object.fromEntries([...block.matchAll(/(--[\w-]+):\s*([^;]+);/g)].map((m) => [m[1]!, m[2]!.trim()]));
}

describe("default variables", () => {
  it("the stylesheet's defaults, which a page falls back to without a workspace's inline variables, are what the default branding computes", () => {
    expect(stylesheetDefaults()).toEqual(brandingCssVars(null));
  });
});
