// Every page the browser tests visit is checked once per run, on a 390 px phone: the document
// must not be wider than the viewport (no sideways scrolling of the whole page), and axe-core
// finds no critical or serious violation in the light or the dark theme.
//
// How, without disturbing the journeys: each browser context the scenarios open records the
// HTML pages its tabs land on (URL and the cookies at that moment). After the scenario, every
// page whose route pattern (ids normalised) has not been checked in this run is opened again in
// a separate context holding those cookies, with JavaScript on, at 390 × 844. A visit that now
// lands elsewhere (a signed-out session, a record that moved on) is left for a later scenario.
//
// E2E_PAGE_CHECKS=0 switches the checks off (to time the journeys alone). E2E_PAGE_SHOTS=DIR saves a
// screenshot of each checked page at 390 px and at 1280 px in DIR (to look at the layouts).
/* global document, getComputedStyle */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import process from "node:process";
import { AxeBuilder } from "@axe-core/playwright";

export const PHONE = { width: 390, height: 844 };
export const PAGE_CHECKS_ON = process.env.E2E_PAGE_CHECKS !== "0";
const SHOTS = process.env.E2E_PAGE_SHOTS ? path.resolve(process.env.E2E_PAGE_SHOTS) : null;
/** A pattern whose visits keep landing elsewhere is given up after this many tries. */
const MAX_TRIES = 3;

/**
 * The route pattern of a URL: host kind (bare domain or a workspace) and path, with segments that
 * carry ids (digits, long tokens) replaced by `:id` and folder paths collapsed. Query and hash
 * are dropped: a filtered list is the same page.
 */
export function pagePattern(href) {
  const url = new URL(href);
  const host = url.hostname.split(".").length > 1 ? "tenant" : "bare";
  const parts = [];
  for (const seg of url.pathname.split("/").filter(Boolean)) {
    if (parts.at(-1) === "folders" || parts.at(-1) === "*") {
      if (parts.at(-1) !== "*") parts.push("*");
      continue;
    }
    parts.push(/\d/.test(seg) || seg.length >= 20 ? ":id" : seg);
  }
  return `${host} /${parts.join("/")}`;
}

/** Visits of the scenario now running: pattern -> { url, cookies }. */
let visits = new Map();
/** Patterns checked in this run, and tries of those still unchecked. */
const checked = new Set();
const tries = new Map();
/** What was measured, for the closing table and .tmp/test-results/pages.json. */
export const pageResults = [];
/** Time the checks took in this run, in ms (they must stay cheap beside the journeys). */
let checkMs = 0;

/** Records the HTML pages that tabs of `context` land on (called by newContext for every context). */
export function recordVisits(context) {
  if (!PAGE_CHECKS_ON) return;
  const watch = (page) =>
    page.on("response", (res) => {
      const req = res.request();
      if (!req.isNavigationRequest() || res.frame() !== page.mainFrame()) return;
      if (res.status() >= 300 && res.status() < 400) return;
      if (!(res.headers()["content-type"] ?? "").includes("text/html")) return;
      const url = res.url();
      if (!url.startsWith("http")) return;
      const pattern = pagePattern(url);
      if (checked.has(pattern) || visits.has(pattern)) return;
      const entry = { url, cookies: null };
      visits.set(pattern, entry);
      entry.cookies = context.cookies().catch(() => []);
    });
  context.on("page", watch);
}

/** Starts a scenario's record. */
export function startVisits() {
  visits = new Map();
}

/** Outermost elements that stick out past the right edge and are not inside a box that scrolls or clips sideways. */
function overflowingElements(viewport) {
  const out = [];
  // Whether a box between `el` and the page clips it sideways. An absolutely positioned element
  // escapes the overflow of every box up to its containing block (the nearest positioned one).
  const clips = (el) => {
    let escaping = ["absolute", "fixed"].includes(getComputedStyle(el).position);
    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
      const style = getComputedStyle(p);
      if (escaping && style.position === "static") continue;
      if (["auto", "scroll", "hidden", "clip"].includes(style.overflowX)) return true;
      escaping = ["absolute", "fixed"].includes(style.position);
    }
    return false;
  };
  const describe = (el) => {
    const cls = typeof el.className === "string" ? el.className.trim().split(/\s+/).slice(0, 4).join(".") : "";
    const label = el.getAttribute("aria-label");
    return `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""}${cls ? `.${cls}` : ""}${label ? `[aria-label="${label}"]` : ""}`;
  };
  const walk = (el) => {
    for (const child of el.children) {
      const r = child.getBoundingClientRect();
      if (r.right > viewport + 1 && r.width > 0 && !clips(child) && getComputedStyle(child).position !== "fixed") {
        out.push(`${describe(child)} (${Math.round(r.width)} px wide, right edge at ${Math.round(r.right)} px)`);
        if (out.length >= 4) return;
      } else walk(child);
    }
  };
  walk(document.body);
  return out;
}

/** Rules whose outcome depends on the colours: all that changes between the light and dark runs. */
const COLOUR_RULES = ["color-contrast", "link-in-text-block"];

async function axeSerious(page, rules) {
  let builder = new AxeBuilder({ page }).options({ resultTypes: ["violations"] });
  if (rules) builder = builder.withRules(rules);
  const { violations } = await builder.analyze();
  return violations.filter((v) => v.impact === "critical" || v.impact === "serious");
}

const describeAxe = (v) =>
  `${v.impact} ${v.id} (${v.help}): ${v.nodes
    .slice(0, 3)
    .map((n) => n.target.join(" "))
    .join(", ")}${v.nodes.length > 3 ? ` and ${v.nodes.length - 3} more` : ""}`;

/**
 * For a scenario that wants the phone width of a page as it stands (e.g. a list once it has rows):
 * narrows `page` to 390 px, measures, and restores its size. Throws naming the elements that stick out.
 */
export async function expectFitsPhone(page, label = page.url()) {
  const before = page.viewportSize();
  await page.setViewportSize(PHONE);
  try {
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    if (width > PHONE.width) {
      const culprits = await page.evaluate(overflowingElements, PHONE.width);
      throw new Error(`${label} at ${PHONE.width} px: the page is ${width} px wide; sticking out: ${culprits.join("; ") || "(no single element found)"}`);
    }
    return width;
  } finally {
    if (before) await page.setViewportSize(before);
  }
}

/**
 * For a table on a phone: narrows `page` to 390 px and checks that the named columns (header text)
 * and the first row's cells under them lie wholly within the viewport before the table's box is
 * scrolled. Restores the size. Throws naming the columns that are cut off or off-screen.
 */
export async function expectKeyColumnsOnPhone(table, columns, label = "table") {
  const page = table.page();
  const before = page.viewportSize();
  await page.setViewportSize(PHONE);
  try {
    const edges = await table.evaluate((el, names) => {
      const heads = [...el.querySelectorAll("thead th")];
      const row = el.querySelector("tbody tr");
      return names.map((name) => {
        const i = heads.findIndex((h) => h.textContent.trim() === name);
        if (i < 0) return { name, missing: true };
        const cell = row?.children[i];
        const rects = [heads[i], cell].filter(Boolean).map((c) => c.getBoundingClientRect());
        return { name, left: Math.min(...rects.map((r) => r.left)), right: Math.max(...rects.map((r) => r.right)) };
      });
    }, columns);
    const bad = edges.filter((e) => e.missing || e.left < 0 || e.right > PHONE.width + 1);
    if (bad.length) {
      const what = bad.map((e) => (e.missing ? `${e.name} (no such column)` : `${e.name} (${Math.round(e.left)}-${Math.round(e.right)} px)`));
      throw new Error(`${label} at ${PHONE.width} px: key columns not in view without scrolling: ${what.join(", ")}`);
    }
  } finally {
    if (before) await page.setViewportSize(before);
  }
}

/** Checks one open page at 390 px; answers the problems found (empty when fine). */
async function checkPage(page, pattern) {
  const problems = [];
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  if (width > PHONE.width) {
    const culprits = await page.evaluate(overflowingElements, PHONE.width);
    problems.push(`${pattern} at ${PHONE.width} px: the page is ${width} px wide; sticking out: ${culprits.join("; ") || "(no single element found)"}`);
  }
  // Switching the colour scheme would otherwise catch colours halfway through a CSS transition.
  await page.addStyleTag({ content: "*, *::before, *::after { transition: none !important; animation: none !important; }" });
  const counts = {};
  for (const colorScheme of ["light", "dark"]) {
    await page.emulateMedia({ colorScheme });
    // The dark run looks again only at what the colours decide; the light run has checked the rest.
    const serious = await axeSerious(page, colorScheme === "dark" ? COLOUR_RULES : undefined);
    counts[colorScheme] = serious.reduce((n, v) => n + v.nodes.length, 0);
    for (const v of serious) problems.push(`${pattern} at ${PHONE.width} px, ${colorScheme}: ${describeAxe(v)}`);
  }
  if (SHOTS) {
    const t0 = Date.now();
    await screenshots(page, pattern);
    // Screenshots are for people looking at the layouts, not part of the check's cost.
    checkMs -= Date.now() - t0;
  }
  pageResults.push({ pattern, url: page.url(), width, axeLight: counts.light, axeDark: counts.dark, ok: problems.length === 0 });
  console.log(`    [page] ${pattern}: ${width} px wide at ${PHONE.width}; axe serious/critical elements light ${counts.light}, dark ${counts.dark}`);
  return problems;
}

async function screenshots(page, pattern) {
  mkdirSync(SHOTS, { recursive: true });
  const name = pattern.replace(/[^a-z0-9]+/gi, "-").replace(/^-|-$/g, "");
  await page.emulateMedia({ colorScheme: "light" });
  await page.screenshot({ path: path.join(SHOTS, `${name}-390.png`), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: path.join(SHOTS, `${name}-1280.png`), fullPage: true });
  await page.setViewportSize(PHONE);
}

/**
 * Checks the pages the scenario visited whose pattern is new in this run. Answers the problems
 * (each names the page, the width, the rule and the element).
 */
export async function checkVisitedPages(browser) {
  if (!PAGE_CHECKS_ON || visits.size === 0) return [];
  const t0 = Date.now();
  const todo = [...visits.entries()].filter(([pattern]) => !checked.has(pattern));
  visits = new Map();
  const problems = [];
  /** One checking context per distinct set of cookies. */
  const contexts = new Map();
  try {
    for (const [pattern, visit] of todo) {
      if (checked.has(pattern)) continue;
      const cookies = await visit.cookies;
      const key = JSON.stringify(cookies.map((c) => [c.domain, c.name, c.value]));
      let context = contexts.get(key);
      if (!context) {
        // bypassCSP: the check adds a style sheet of its own (no transitions) to the page.
        context = await browser.newContext({ viewport: PHONE, locale: "en-GB", timezoneId: "Europe/London", bypassCSP: true });
        context.setDefaultTimeout(10_000);
        context.setDefaultNavigationTimeout(15_000);
        if (cookies.length) await context.addCookies(cookies);
        contexts.set(key, context);
      }
      const page = await context.newPage();
      try {
        await page.emulateMedia({ colorScheme: "light" });
        const res = await page.goto(visit.url, { waitUntil: "load" });
        const landed = pagePattern(page.url());
        const html = (res?.headers()["content-type"] ?? "").includes("text/html");
        if (!html || landed !== pattern) {
          const n = (tries.get(pattern) ?? 0) + 1;
          tries.set(pattern, n);
          if (n >= MAX_TRIES) {
            checked.add(pattern);
            console.log(`    [page] ${pattern}: not checked, it led elsewhere (${landed}) on ${n} tries`);
          }
          if (!html || checked.has(landed)) continue;
        }
        checked.add(landed);
        // Let React hydrate when the page has scripts, so axe sees the page a person uses.
        await page
          .waitForFunction(
            () => !document.querySelector("script[type=module]") || Object.keys(document.body).some((k) => k.startsWith("__reactProps$")),
            null,
            {
              timeout: 5_000,
            },
          )
          .catch(() => {});
        problems.push(...(await checkPage(page, landed)));
      } catch (err) {
        problems.push(`${pattern}: could not check ${visit.url}: ${String(err?.message ?? err).split("\n")[0]}`);
        checked.add(pattern);
      } finally {
        await page.close().catch(() => {});
      }
    }
  } finally {
    for (const context of contexts.values()) await context.close().catch(() => {});
    checkMs += Date.now() - t0;
  }
  return problems;
}

/** The closing table of every page checked, and the same as JSON for scripts. */
export function reportPages(root) {
  if (!PAGE_CHECKS_ON || pageResults.length === 0) return;
  const sorted = [...pageResults].sort((a, b) => a.pattern.localeCompare(b.pattern));
  const wide = sorted.filter((r) => r.width > PHONE.width).length;
  const axe = sorted.filter((r) => r.axeLight + r.axeDark > 0).length;
  console.log(
    `\n[pages] ${sorted.length} pages checked at ${PHONE.width} px: ${wide} wider than the phone, ${axe} with serious/critical axe violations; the checks took ${Math.round(checkMs / 1000)} s`,
  );
  console.log("  width  axe light/dark  page");
  for (const r of sorted) console.log(`  ${String(r.width).padStart(5)}  ${`${r.axeLight}/${r.axeDark}`.padStart(14)}  ${r.pattern}`);
  mkdirSync(path.join(root, ".tmp", "test-results"), { recursive: true });
  writeFileSync(path.join(root, ".tmp", "test-results", "pages.json"), JSON.stringify(sorted, null, 1));
}
