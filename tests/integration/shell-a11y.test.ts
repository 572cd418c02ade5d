import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { platformAdmins } from "~/db/schema";
import { hashPassword } from "~/features/auth/password.server";
import { accentAsText, contrastRatio, DEFAULT_BRANDING, hslToHex } from "~/features/platform/branding";
import { newId } from "~/utils/ids";
import { cisStaff, cisTenant } from "../factories/cis";
import { all, page, type Doc } from "../factories/html";
import { signInPlatform } from "./auth-helpers";
import { Browser } from "./http";

/** Landmarks as assistive technology counts them: a <header> is a banner unless it sits in article, aside, main, nav or section. */
function banners(doc: Doc): Element[] {
  const headers = all(doc, "header").filter((h) => !h.parentElement?.closest("article, aside, main, nav, section") && !h.hasAttribute("role"));
  return [...headers, ...all(doc, '[role="banner"]')];
}

function expectOneMainAndBanner(doc: Doc, url: string) {
  const mains = [...all(doc, "main"), ...all(doc, '[role="main"]')];
  expect(mains.length, `${url}: one main landmark`).toBe(1);
  expect(mains[0]?.getAttribute("id"), `${url}: the main landmark is the skip link's target`).toBe("main");
  expect(all(doc, "#main").length, `${url}: one element with id main`).toBe(1);
  expect(banners(doc).length, `${url}: at most one banner`).toBeLessThanOrEqual(1);
  for (const link of all(doc, 'a[href="#main"]')) expect(link.closest("main"), `${url}: skip link outside main`).toBeNull();
}

async function check(browser: Browser, url: string): Promise<Doc> {
  const res = await browser.get(url);
  expect(res.status, url).toBe(200);
  const doc = await page(res);
  expectOneMainAndBanner(doc, url);
  return doc;
}

/** Reads the custom properties off <html style="…">. */
function rootVars(doc: Doc): Record<string, string> {
  const style = doc.documentElement.getAttribute("style") ?? "";
  return Object.fromEntries(
    style
      .split(";")
      .map((d) => d.split(/:(.*)/s).map((s) => s.trim()))
      .filter((p): p is [string, string] => p.length >= 2 && Boolean(p[0]))
      .map(([k, v]) => [k, v]),
  );
}

describe("the shells' landmarks", () => {
  it("every staff page has one <main id=main> and one banner, CIS settings included", async () => {
    const { t, b } = await cisStaff("admin", { settings: {} });
    for (const path of ["/cis", "/cis/settings", "/cis/invoices", "/cis/subcontractors", "/cis/returns", "/settings/branding", "/welcome", "/account"]) {
      const doc = await check(b, `${t.origin}${path}`);
      expect(banners(doc).length, path).toBe(1);
    }
  });

  it("the account menu's accessible name contains the name it shows", async () => {
    const { t, u, b } = await cisStaff("admin", { settings: {} });
    const doc = await check(b, `${t.origin}/welcome`);
    const summary = all(doc, "summary").find((s) => s.hasAttribute("aria-labelledby"));
    expect(summary, "the account menu is named by its own text").toBeDefined();
    expect(summary?.hasAttribute("aria-label")).toBe(false);
    const label = doc.getElementById(summary?.getAttribute("aria-labelledby") ?? "");
    const shown = `User ${u.email.split("@")[0]}`;
    expect(label?.textContent).toBe(`Account menu for ${shown}`);
    // The visible name is inside the labelling element (shown from the sm breakpoint up); the initials are drawn by CSS, not text.
    expect(all(label!, "span").some((s) => s.textContent === shown && s.className.includes("sm:not-sr-only"))).toBe(true);
    expect(summary?.textContent?.trim()).toBe(`Account menu for ${shown}`);
  });

  it("the portal, the public site and the pages outside a workspace have one <main id=main> too", async () => {
    const t = await cisTenant({ settings: {} });
    const anon = new Browser();
    await check(anon, `${t.origin}/portal/login`);
    await check(anon, "http://localhost/");
    await check(anon, "http://localhost/privacy");
    await check(anon, "http://localhost/login");

    const email = `admin-${newId().slice(0, 8).toLowerCase()}@platform.test`;
    await getDb(env)
      .insert(platformAdmins)
      .values({
        id: newId(),
        email,
        displayName: "Platform Admin",
        scopes: ["system.superadmin"],
        passwordHash: await hashPassword(env, "platform-admin-password"),
        createdAt: Date.now(),
      });
    const admin = await signInPlatform(email, "platform-admin-password");
    await check(admin, "http://localhost/superadmin");
  });
});

describe("the readable shades in the shell", () => {
  it("a tenant with accent #00d157 gets black text on it and darkened/lightened link shades, computed on the server", async () => {
    const { t, b } = await cisStaff("admin", { settings: {} });
    const saved = await b.post(`${t.origin}/settings/branding`, { accentColor: "#00D157", radius: "0.5rem", appearance: "auto", fontFamily: "Inter" });
    expect(saved.status).toBe(302);
    const doc = await check(b, `${t.origin}/cis/invoices`);
    const vars = rootVars(doc);
    const accent = hslToHex(vars["--accent"] ?? "");
    expect(contrastRatio(accent, "#ffffff"), "the stored accent itself is too pale for white text or links").toBeLessThan(4.5);

    expect(vars["--accent-foreground"]).toBe("#000000");
    const d = DEFAULT_BRANDING;
    const light = [d.lightPrimary, d.lightElevated, d.lightSurface].map(hslToHex);
    const dark = [d.darkPrimary, d.darkElevated, d.darkSurface].map(hslToHex);
    expect(vars["--accent-ink-light"]).toBe(accentAsText(accent, light));
    expect(vars["--accent-ink-dark"]).toBe(accentAsText(accent, dark));
    for (const bg of light) expect(contrastRatio(vars["--accent-ink-light"]!, bg)).toBeGreaterThanOrEqual(4.5);
    for (const bg of dark) expect(contrastRatio(vars["--accent-ink-dark"]!, bg)).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(vars["--danger-strong"]!, "#ffffff")).toBeGreaterThanOrEqual(4.5);
    for (const bg of light) expect(contrastRatio(vars["--danger-ink-light"]!, bg)).toBeGreaterThanOrEqual(4.5);
  });

  it("ignores shades a tenant tries to store: the readable ones are derived from the accent alone", async () => {
    const { t, b } = await cisStaff("admin", { settings: {} });
    await env.DB.prepare("UPDATE tenants SET branding = ? WHERE id = ?")
      .bind(JSON.stringify({ accentHsl: "145 100% 41%", accentForeground: "0 0% 100%", "--accent-ink-light": "#00d157" }), t.id)
      .run();
    const vars = rootVars(await check(b, `${t.origin}/welcome`));
    expect(vars["--accent-foreground"]).toBe("#000000");
    expect(contrastRatio(vars["--accent-ink-light"]!, "#ffffff")).toBeGreaterThanOrEqual(4.5);
  });
});
