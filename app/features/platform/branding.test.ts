import { describe, expect, it } from "vitest";
import { accentForeground, brandingCssVars, effectiveTheme, fontStack, hexToHsl, hslToHex } from "./branding";

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
  it("switches text to dark above 60% lightness", () => {
    expect(accentForeground("60 100% 70%")).toBe("0 0% 9%");
    expect(accentForeground("145 100% 41%")).toBe("0 0% 100%");
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
