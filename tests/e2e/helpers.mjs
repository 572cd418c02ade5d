// Shared pieces for the browser tests. Test files (tests/e2e/*.e2e.mjs) register scenarios
// with `scenario()`; tests/e2e/run.mjs builds and serves the app, then runs every scenario
// twice, once with JavaScript and once without, each in a fresh browser context.
import { mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

export const PORT = 8787;
/** The bare domain: the public site and platform admin. */
export const BASE = `http://localhost:${PORT}`;
export const tenantUrl = (slug, pathname = "/") => `http://${slug}.localhost:${PORT}${pathname}`;
export const ACME = tenantUrl("acme");
export const GLOBEX = tenantUrl("globex");

/** The seeded demo accounts (app/db/seed.ts). */
export const PASSWORD = "workspace-demo-2026";
export const ACCOUNTS = {
  acmeAdmin: "admin@acme.test",
  acmeManager: "manager@acme.test", // two-factor required
  acmeLead: "lead@acme.test",
  acmeStaff: "staff@acme.test",
  globexAdmin: "admin@globex.test",
  globexStaff: "staff@globex.test",
  superadmin: "superadmin@workspace.test",
};

export const SCREENSHOT_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "screenshots");

const CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

/** Debian's chromium driven by playwright-core (Playwright's own download does not work here). */
export function launch() {
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: CHROMIUM_ARGS });
}

/**
 * A fresh context (own cookies) with JavaScript on or off. Pages opened in it record
 * uncaught exceptions and console errors in `page.problems` so the runner can fail a
 * scenario whose page threw, even when its assertions passed.
 */
export async function newContext(browser, js = true, options = {}) {
  const context = await browser.newContext({ javaScriptEnabled: js, locale: "en-GB", timezoneId: "Europe/London", ...options });
  context.setDefaultTimeout(10_000);
  context.setDefaultNavigationTimeout(15_000);
  context.on("page", watchPage);
  return context;
}

function watchPage(page) {
  if (page.problems) return;
  page.problems = [];
  page.on("pageerror", (err) => page.problems.push(`uncaught: ${err.message}`));
  page.on("console", (msg) => {
    // A 4xx document is expected in some scenarios; Chromium logs it as a console error.
    if (msg.type() === "error" && !/Failed to load resource/.test(msg.text())) page.problems.push(`console: ${msg.text()}`);
  });
}

/** Opens a page in `context` that is already being watched for errors. */
export async function newPage(context) {
  const page = await context.newPage();
  watchPage(page);
  return page;
}

const slug = (s) => s.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "").slice(0, 100);

/** Runs fn(); if it throws, saves a full-page screenshot of `page` first. Returns the file on failure via err.screenshot. */
export async function withScreenshotOnFailure(page, name, fn) {
  try {
    return await fn();
  } catch (err) {
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    const file = path.join(SCREENSHOT_DIR, `${slug(name)}.png`);
    try {
      await page.screenshot({ path: file, fullPage: true, timeout: 5_000 });
      if (err && typeof err === "object") err.screenshot = file;
    } catch {
      // The page may be gone (crashed, closed); the original error matters more.
    }
    throw err;
  }
}

/** Messages the dev e-mail transport recorded for `to`, newest first. */
export async function readMailbox(to) {
  const url = new URL("/dev/mailbox", BASE);
  url.searchParams.set("format", "json");
  if (to) url.searchParams.set("to", to);
  const res = await fetch(url);
  if (!res.ok) throw new Error(`GET ${url} answered ${res.status}`);
  const body = await res.json();
  return body.messages;
}

/**
 * Waits for a message to `to` that arrives after `since` (ms epoch) and matches `match`
 * (e-mail goes through a queue, so it lands a moment after the action that sent it).
 */
export async function waitForMail(to, { since = 0, match = () => true, timeout = 10_000 } = {}) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const found = (await readMailbox(to)).find((m) => m.createdAt >= since && match(m));
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`No e-mail to ${to} within ${timeout} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

// ---------------------------------------------------------------------------------------
// Registration. A scenario runs once per mode in `modes` (default: with and without JS).

/** @type {{ name: string, fn: Function, modes: boolean[], timeout: number, file?: string }[]} */
export const registry = [];
/** @type {{ name: string, file?: string }[]} */
export const todos = [];

/**
 * scenario("name", async ({ page, context, browser, js }) => { ... }, { modes: [true, false], timeout: 30_000 })
 * Use `js` to branch where behaviour legitimately differs (e.g. client-side validation).
 */
export function scenario(name, fn, { modes = [true, false], timeout = 30_000 } = {}) {
  registry.push({ name, fn, modes, timeout });
}

/** A scenario still to be written: listed in the output, counted neither passed nor failed. */
export function todo(name) {
  todos.push({ name });
}

/** Minimal assertions with messages that say what was expected. */
export function expect(actual, message = "") {
  const fail = (what) => {
    throw new Error(`${message ? `${message}: ` : ""}${what}`);
  };
  return {
    toBe(expected) {
      if (!Object.is(actual, expected)) fail(`expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
    },
    toContain(part) {
      if (actual == null || !actual.includes(part)) fail(`expected ${JSON.stringify(actual)} to contain ${JSON.stringify(part)}`);
    },
    toMatch(re) {
      if (!re.test(String(actual))) fail(`expected ${JSON.stringify(actual)} to match ${re}`);
    },
    toBeTruthy() {
      if (!actual) fail(`expected a truthy value, got ${JSON.stringify(actual)}`);
    },
  };
}
