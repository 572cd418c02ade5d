// `npm run test:e2e [-- [--no-build] [--grep TEXT] [--js-only] [tests/e2e/x.e2e.mjs ...]]`
//
// Builds the app, migrates and seeds a fresh local D1 in .wrangler/e2e-state (separate from
// `npm run dev`'s data), serves the built worker with `wrangler dev` on :8787 and runs every
// scenario in tests/e2e/*.e2e.mjs in Debian's chromium, once with JavaScript and once
// without. Installs chromium first when it is missing and this runs as root; otherwise stops
// with one line naming the command. Ends with "N passed, N failed" and exits non-zero on any
// failure.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import process from "node:process";
import { pathToFileURL } from "node:url";
import { ensureChromium, launch, newContext, newPage, PORT, registry, SCREENSHOT_DIR, todos, withScreenshotOnFailure } from "./helpers.mjs";
import { checkVisitedPages, reportPages, startVisits } from "./page-checks.mjs";
import { buildApp, e2eConfig, freshState, settleAll, ROOT, serveBuilt, since } from "./server.mjs";

const E2E_DIR = path.join(ROOT, "tests", "e2e");
const PERSIST_TO = path.join(".wrangler", "e2e-state");
const LOG_FILE = path.join(ROOT, ".wrangler", "e2e-wrangler.log");

function parseArgs(argv) {
  const opts = { build: true, grep: null, files: [], jsOnly: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--no-build") opts.build = false;
    else if (a === "--grep") opts.grep = argv[++i];
    else if (a.startsWith("--grep=")) opts.grep = a.slice("--grep=".length);
    else if (a === "--js-only") opts.jsOnly = true;
    else if (a.startsWith("-")) throw new Error(`Unknown option ${a}`);
    else opts.files.push(path.resolve(a));
  }
  return opts;
}

async function loadScenarios(files) {
  const all = readdirSync(E2E_DIR)
    .filter((f) => f.endsWith(".e2e.mjs"))
    .sort()
    .map((f) => path.join(E2E_DIR, f));
  const chosen = files.length ? all.filter((f) => files.includes(f)) : all;
  if (files.length && chosen.length !== files.length) throw new Error(`Not an e2e file: ${files.filter((f) => !all.includes(f)).join(", ")}`);
  for (const file of chosen) {
    const before = registry.length;
    const todosBefore = todos.length;
    await import(pathToFileURL(file).href);
    for (const s of registry.slice(before)) s.file = path.relative(ROOT, file);
    for (const t of todos.slice(todosBefore)) t.file = path.relative(ROOT, file);
  }
}

function withTimeout(promise, ms, what) {
  let timer;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms / 1000} s`)), ms);
    }),
  ]);
}

/** What failed, for the closing summary: the last lines CI shows. */
const failures = [];

async function runOne(browser, s, js) {
  const label = `${s.name} [${js ? "js" : "no-js"}]`;
  const t0 = Date.now();
  startVisits();
  const context = await newContext(browser, js);
  const page = await newPage(context);
  try {
    await withScreenshotOnFailure(page, label, async () => {
      await withTimeout(
        Promise.resolve().then(() => s.fn({ page, context, browser, js })),
        s.timeout,
        label,
      );
      if (page.problems.length) throw new Error(`the page reported errors:\n      ${page.problems.join("\n      ")}`);
    });
    // The pages this scenario visited, new in this run: 390 px wide at most, no serious axe violation.
    const pageProblems = await checkVisitedPages(browser);
    if (pageProblems.length) {
      const ms = Date.now() - t0;
      console.log(`  ✗ ${label} (${ms} ms): pages it visited fail the phone and accessibility checks`);
      for (const p of pageProblems) console.log(`      ${p}`);
      failures.push({
        name: `${s.file} › ${label} (${ms} ms)`,
        message: `pages it visited fail the phone and accessibility checks:\n${pageProblems.slice(0, 2).join("\n")}`,
      });
      return false;
    }
    console.log(`  ✓ ${label} (${Date.now() - t0} ms)`);
    return true;
  } catch (err) {
    const ms = Date.now() - t0;
    const lines = String(err?.stack ?? err).split("\n");
    console.log(`  ✗ ${label} (${ms} ms)`);
    console.log(`      ${lines.slice(0, 6).join("\n      ")}`);
    failures.push({ name: `${s.file} › ${label} (${ms} ms)`, message: lines.slice(0, 3).join("\n") });
    if (err?.screenshot) console.log(`      screenshot: ${path.relative(ROOT, err.screenshot)}`);
    return false;
  } finally {
    await context.close().catch(() => {});
  }
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const tAll = Date.now();
  let passed = 0;
  let failed = 0;
  let server = null;
  let browser = null;
  // Screenshots from an earlier run would pass for this run's failures.
  rmSync(SCREENSHOT_DIR, { recursive: true, force: true });
  // Before the build, so a machine without the browser stops at once with what to run.
  const noBrowser = ensureChromium();
  if (noBrowser) {
    console.error(`[e2e] ${noBrowser}`);
    process.exit(1);
  }
  try {
    await loadScenarios(opts.files);
    const selected = opts.grep ? registry.filter((s) => s.name.includes(opts.grep)) : registry;
    // A run that tests nothing must not look like a pass.
    if (selected.length === 0) throw new Error(opts.grep ? `No scenario name contains "${opts.grep}"` : "No scenarios found");

    const t0 = Date.now();
    // Building and preparing the database are independent; run them side by side.
    await settleAll([opts.build ? buildApp() : Promise.resolve(), freshState(PERSIST_TO)]);
    console.log(`[e2e] ${opts.build ? "built and " : ""}migrated + seeded ${PERSIST_TO} in ${since(t0)}`);

    const t1 = Date.now();
    server = await serveBuilt({
      port: PORT,
      persistTo: PERSIST_TO,
      logFile: LOG_FILE,
      inspectorPort: PORT === 8787 ? undefined : PORT + 1000,
      config: e2eConfig(),
    });
    console.log(`[e2e] wrangler dev serving the built worker at ${server.url} after ${since(t1)} (log: ${path.relative(ROOT, LOG_FILE)})`);

    const t2 = Date.now();
    browser = await launch();
    let currentFile = null;
    for (const s of selected) {
      if (s.file !== currentFile) {
        currentFile = s.file;
        console.log(`\n${s.file}`);
      }
      for (const js of opts.jsOnly ? s.modes.filter(Boolean) : s.modes) {
        if (await runOne(browser, s, js)) passed++;
        else failed++;
      }
    }
    reportPages(ROOT);
    console.log(`\n[e2e] browser runs took ${since(t2)}; whole run ${since(tAll)}`);
    if (todos.length) {
      console.log(`\n${todos.length} todo:`);
      for (const t of todos) console.log(`  - ${t.name} (${t.file})`);
    }
  } catch (err) {
    failed++;
    console.error(`\n[e2e] could not run the scenarios: ${err?.stack ?? err}`);
    failures.push({
      name: "could not run the scenarios",
      message: String(err?.stack ?? err)
        .split("\n")
        .slice(0, 3)
        .join("\n"),
    });
  } finally {
    if (browser) await browser.close().catch(() => {});
    if (server) await server.stop();
  }
  console.log(`${passed} passed, ${failed} failed`);
  // For scripts/test-summary.mjs, which prints one total line for the whole `npm test`.
  mkdirSync(path.join(ROOT, ".tmp", "test-results"), { recursive: true });
  writeFileSync(path.join(ROOT, ".tmp", "test-results", "e2e.json"), JSON.stringify({ passed, failed, failures }));
  process.exitCode = failed > 0 || passed === 0 ? 1 : 0;
}

await main();
