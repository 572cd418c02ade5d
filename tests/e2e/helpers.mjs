// Shared pieces for the browser tests. Test files (tests/e2e/*.e2e.mjs) register scenarios
// with `scenario()`; tests/e2e/run.mjs builds and serves the app, then runs every scenario
// twice, once with JavaScript and once without, each in a fresh browser context.
/* global document */ // used inside page.waitForFunction callbacks, which run in the browser
import { utrCheckDigit } from "../../app/features/cis/domain/references.ts";
import { spawnSync } from "node:child_process";
import { closeSync, existsSync, mkdirSync, openSync, readFileSync } from "node:fs";
import path from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { AxeBuilder } from "@axe-core/playwright";
import { chromium } from "playwright-core";
import { recordVisits } from "./page-checks.mjs";

export { expectFitsPhone, expectKeyColumnsOnPhone } from "./page-checks.mjs";

// E2E_PORT lets several checkouts on one machine run their browser tests side by side.
export const PORT = Number(process.env.E2E_PORT ?? 8787);
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

const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const chromiumPath = () => process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const INSTALL_CHROMIUM = "apt-get update && apt-get install -y chromium";

/**
 * Makes sure the browser is there before anything is built. When Debian's chromium is missing
 * and this runs as root (CI, a fresh machine), installs it with apt, non-interactively; otherwise
 * answers the one line that says what to run. Returns null when chromium is ready.
 */
export function ensureChromium() {
  const exe = chromiumPath();
  if (existsSync(exe)) return null;
  if (process.env.CHROMIUM_PATH) return `CHROMIUM_PATH is ${exe}, which does not exist: point it at a Chromium binary, or unset it to use Debian's chromium`;
  const hasApt = spawnSync("apt-get", ["--version"], { stdio: "ignore" }).error == null;
  if (!hasApt) return `chromium is not installed at ${exe}: install Chromium and set CHROMIUM_PATH to its binary`;
  if (process.getuid?.() !== 0) return `chromium is not installed: run \`sudo sh -c "${INSTALL_CHROMIUM}"\` (or set CHROMIUM_PATH to a Chromium binary)`;
  const log = path.join(ROOT, ".tmp", "chromium-install.log");
  mkdirSync(path.dirname(log), { recursive: true });
  console.log(`[e2e] chromium is not installed: running ${INSTALL_CHROMIUM} (once; apt's output goes to ${path.relative(ROOT, log)})`);
  const t0 = Date.now();
  const fd = openSync(log, "w");
  const r = spawnSync("sh", ["-c", INSTALL_CHROMIUM], { stdio: ["ignore", fd, fd], env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
  closeSync(fd);
  if (r.status !== 0 || !existsSync(exe)) {
    const tail = readFileSync(log, "utf8").trimEnd().split("\n").slice(-15).join("\n      ");
    return `installing chromium failed (exit ${r.status ?? r.error?.message}); run \`${INSTALL_CHROMIUM}\` as root. apt's last lines:\n      ${tail}`;
  }
  console.log(`[e2e] installed chromium in ${Math.round((Date.now() - t0) / 1000)} s`);
  return null;
}

/** Debian's chromium driven by playwright-core (Playwright's own download does not work here). */
export function launch() {
  return chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
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
  // The pages its tabs land on are checked at 390 px and with axe after the scenario (page-checks.mjs).
  recordVisits(context);
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

const slug = (s) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")
    .slice(0, 100);

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

// ---------------------------------------------------------------------------------------
// Journeys shared by several scenarios.

/**
 * Resolves once React has hydrated the page (with JavaScript on): React tags a hydrated host
 * element with a `__reactProps$…` key, and <body> completes after everything inside it.
 * A no-op without JavaScript, so scenarios can call it in both modes.
 */
export async function waitForHydration(page, js = true) {
  if (!js) return;
  await page.waitForFunction(() => Object.keys(document.body).some((k) => k.startsWith("__reactProps$")), null, { timeout: 10_000 });
}

/** Opens `origin`/login, fills the labelled fields and clicks 'Sign in'. Does not wait for the landing page. */
export async function submitLogin(page, { origin, email, password = PASSWORD, js = true }) {
  await page.goto(`${origin.replace(/\/$/, "")}/login`);
  await waitForHydration(page, js);
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

/** Signs in on a tenant host (no second step) and waits until the browser has left /login. */
export async function signIn(page, { slug = "acme", email = ACCOUNTS.acmeAdmin, password = PASSWORD, js = true } = {}) {
  await submitLogin(page, { origin: tenantUrl(slug), email, password, js });
  await page.waitForURL((u) => u.pathname !== "/login", { timeout: 15_000 });
}

/** The toast with `title`, visible (with JavaScript it closes itself after 4 s, so look at once). */
export async function expectToast(page, title, { timeout = 10_000 } = {}) {
  const toast = page.locator("[data-toast-type]").filter({ has: page.getByText(title, { exact: true }) });
  await toast.first().waitFor({ state: "visible", timeout });
  return toast.first();
}

/** Opens the <details> user menu in the header (a no-op when it is already open). */
export async function openUserMenu(page) {
  const details = page.locator("header details");
  if (!(await details.evaluate((d) => d.open))) await page.getByLabel(/^Account menu for /).click();
  await details.getByRole("button", { name: "Sign out", exact: true }).waitFor({ state: "visible" });
  return details;
}

/** Today in London as YYYY-MM-DD (en-CA formats dates that way). */
export const londonDate = (d = new Date()) =>
  new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/London", year: "numeric", month: "2-digit", day: "2-digit" }).format(d);

/** A tag unique to this run, so data created by one run (and mode) never meets another's. */
export const RUN = Date.now().toString(36);

let lastUtrTick = 0;
/** A valid UTR unique within this process (and, in practice, across runs): HMRC's check digit, then the clock's last nine digits. */
export function uniqueUtr() {
  lastUtrTick = Math.max(Date.now(), lastUtrTick + 1);
  const tail = String(lastUtrTick % 1_000_000_000).padStart(9, "0");
  return `${utrCheckDigit(tail)}${tail}`;
}

/** Minimal CSV parser (quoted fields, doubled quotes, CRLF or LF). */
export function parseCsv(text) {
  const rows = [];
  let row = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(field);
      field = "";
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
    } else field += c;
  }
  if (field !== "" || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

/**
 * Creates a subcontractor through /cis/subcontractors/new (already signed in with cis.sub.write),
 * checks it lands on the subcontractor's own page with its 'Subcontractor created' toast, then opens
 * the list. Returns what was entered and the new id.
 */
export async function createSubcontractor(page, { name, utr = uniqueUtr(), email = "", type = "Individual", verification = "Standard", js = true }) {
  await page.goto(tenantUrl("acme", "/cis/subcontractors/new"));
  await page.getByRole("heading", { name: "New Subcontractor" }).waitFor();
  await waitForHydration(page, js);
  await page.getByLabel("Type", { exact: true }).selectOption({ label: type });
  await page.getByLabel("Name *", { exact: true }).fill(name);
  await page.getByLabel("UTR *", { exact: true }).fill(utr);
  if (email) await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Verification Status", { exact: true }).selectOption({ label: verification });
  await page.getByRole("button", { name: "Create Subcontractor", exact: true }).click();
  // It lands on the new subcontractor's own page, with the toast.
  await page.waitForURL((u) => /^\/cis\/subcontractors\/[^/]+$/.test(u.pathname) && !u.pathname.endsWith("/new"), { timeout: 15_000 });
  await page.getByRole("heading", { name, exact: true }).waitFor();
  const toast = await expectToast(page, "Subcontractor created");
  expect(await toast.innerText(), "create toast").toContain(`${name} has been created.`);
  const id = new URL(page.url()).pathname.split("/").pop();
  // Callers carry on from the list.
  await page.goto(tenantUrl("acme", "/cis/subcontractors"));
  await page.getByRole("search").waitFor();
  return { name, utr, email, id };
}

/** Submits the list's GET search form (Search, Status, Type, Apply) and waits for the result. */
export async function searchSubcontractors(page, { q = "", status = "All", type = "All" } = {}) {
  const form = page.getByRole("search");
  await form.getByRole("searchbox", { name: "Search" }).fill(q);
  await form.getByLabel("Status").selectOption({ label: status });
  await form.getByLabel("Type").selectOption({ label: type });
  await form.getByRole("button", { name: "Apply", exact: true }).click();
  await page.waitForURL((u) => u.pathname === "/cis/subcontractors" && u.searchParams.get("q") === q && u.searchParams.get("status") === status.toLowerCase());
}

// ---------------------------------------------------------------------------------------
// Accessibility: axe-core run inside the page as it stands (no browser download).

/**
 * Runs axe on the page and fails on every critical or serious violation, naming the rule, the
 * elements and what axe says is wrong. `only` restricts the run to those rule ids: for a page
 * with known open violations, list the rules that pass and name the open ones in a comment.
 */
export async function expectNoSeriousAxeViolations(page, { only, label = page.url() } = {}) {
  let builder = new AxeBuilder({ page });
  if (only) builder = builder.withRules(only);
  const { violations } = await builder.analyze();
  const serious = violations.filter((v) => v.impact === "critical" || v.impact === "serious");
  const nodes = serious.reduce((n, v) => n + v.nodes.length, 0);
  console.log(
    `[axe] ${label}: ${serious.length} serious/critical rule(s), ${nodes} element(s)${serious.length ? `: ${serious.map((v) => `${v.id}×${v.nodes.length}`).join(", ")}` : ""}`,
  );
  if (serious.length === 0) return;
  const detail = serious
    .map(
      (v) =>
        `${v.impact} ${v.id}: ${v.help}\n${v.nodes
          .slice(0, 5)
          .map((n) => `    ${n.target.join(" ")} ${n.failureSummary?.split("\n").slice(1, 2).join(" ") ?? ""}`)
          .join("\n")}`,
    )
    .join("\n  ");
  throw new Error(`axe found serious accessibility violations on ${label}:\n  ${detail}`);
}

/** The landmark and naming rules the shells promise, whatever axe's impact for them. */
export const SHELL_AXE_RULES = ["landmark-one-main", "landmark-no-duplicate-banner", "landmark-no-duplicate-main", "bypass", "label-content-name-mismatch"];

/** Fails on any violation of `rules` (any impact), naming the rule and the elements. */
export async function expectNoAxeViolationsOf(page, rules, { label = page.url() } = {}) {
  const { violations } = await new AxeBuilder({ page }).withRules(rules).analyze();
  if (violations.length === 0) return;
  const detail = violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`).join("\n  ");
  throw new Error(`axe found violations of the shell's rules on ${label}:\n  ${detail}`);
}
