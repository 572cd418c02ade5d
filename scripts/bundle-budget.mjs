// First-load JavaScript per page of the production build, against a budget.
//
//   node scripts/bundle-budget.mjs [--quiet]     (after `react-router build`; `npm run build` runs it)
//
// A page's first load is what its HTML asks the browser to fetch before it can hydrate: React
// Router's entry module and its imports, then the module and imports of every route that matches
// (root, layouts, the page), each file once. The sizes are gzip (level 9), like the transfer in a
// browser's network panel. Any page (a route that renders, not a resource route) over
// BUDGET_BYTES fails the run; the table lists the pages people open most, then the heaviest.
// Any client file carrying a server-only library (zod, date-fns-tz) fails it too, named.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const CLIENT = path.join(ROOT, "build", "client");

/** The goal for every page: React, React DOM and React Router alone are about 105.3 KB of it. */
export const BUDGET_BYTES = 120 * 1024;

/**
 * Pages over the goal, each held at its size plus about 1 KB so that it cannot grow unnoticed
 * (ADRs 0057, 0068, 0069, 0073 and 0078, measured 2026-11-27 after the last of them). Every page
 * pays about 110.1 KB before its own code: the framework chunk with React Router's entry and the
 * bundler's runtime 105.3 KB, and the shell chunk holding the root 4.8 KB. The pages whose form is
 * the page carry @conform-to/react (8.3 KB) for the fields' ids, errors and values, and only those
 * are listed, and the subcontractor list, whose rows are written as markup on both sides: about
 * 0.8 KB of JavaScript for a tenth less server time on every view (ADR 0079). Lower a ceiling when
 * a page gets lighter, and delete it once the page is within the goal; a page not listed here must
 * stay within the goal. KB gzip, by route id.
 */
export const CEILINGS_KB = {
  "cis-invoice-edit": 127,
  "cis-invoice-new": 127,
  "cis-portal-invite-existing": 124,
  "cis-portal-invite-new": 124,
  "cis-subcontractor-edit": 126,
  "cis-subcontractor-new": 126,
  "features/cis/routes/settings": 125,
  "features/cis/routes/subcontractors-list": 121,
  "features/marketing/routes/start-a-project": 123,
  "features/portal/routes/invoice-new": 125,
  "features/superadmin/routes/console": 125,
  "features/team/routes/account": 124,
  "features/team/routes/users": 125,
  "features/tenant-settings/routes/branding": 124,
};

/**
 * No page may be given more room than the goal plus @conform-to/react's chunk (8.3 KB): a ceiling
 * is for a page whose form is the page, and its own code keeps to the room any other page has
 * (ADR 0078). A small form beside a page's main content reads the action's reply by hand instead.
 */
export const CEILING_LIMIT_KB = 128;

export const budgetFor = (id) => (CEILINGS_KB[id] ?? BUDGET_BYTES / 1024) * 1024;

/** The pages the table always shows, by route id (the file path under app/ unless routes.config names it). */
export const KEY_PAGES = [
  ["Public home", "features/marketing/routes/home"],
  ["Login", "features/auth/routes/login"],
  ["CIS dashboard", "features/cis/routes/dashboard"],
  ["Invoice list", "features/cis/invoices/routes/list"],
  ["Invoice form", "cis-invoice-new"],
  ["Subcontractor list", "features/cis/routes/subcontractors-list"],
  ["Portal home", "features/portal/routes/home"],
];

/** React Router's browser manifest, which the build writes as build/client/assets/manifest-<hash>.js. */
export function readManifest(clientDir = CLIENT) {
  const dir = path.join(clientDir, "assets");
  const files = readdirSync(dir).filter((f) => /^manifest-[\w-]+\.js$/.test(f));
  if (files.length !== 1) throw new Error(`expected one manifest-*.js in ${dir}, found ${files.length}: run \`react-router build\` first`);
  const text = readFileSync(path.join(dir, files[0]), "utf8");
  const json = text.slice(text.indexOf("{"), text.lastIndexOf("}") + 1);
  return JSON.parse(json);
}

/** The JS files (URL paths) a page's HTML preloads: the entry, then each matched route from the root down. */
export function firstLoadFiles(manifest, routeId) {
  const chain = [];
  for (let id = routeId; id; id = manifest.routes[id]?.parentId) {
    const route = manifest.routes[id];
    if (!route) throw new Error(`no route ${id} in the manifest`);
    chain.unshift(route);
  }
  const files = new Set([manifest.entry.module, ...(manifest.entry.imports ?? [])]);
  for (const route of chain) for (const f of [route.module, ...(route.imports ?? [])]) if (f) files.add(f);
  return [...files];
}

/** Routes that are a page: a leaf that renders (resource routes have no default export and no HTML; layouts are never the page). */
export function pageRouteIds(manifest) {
  const routes = Object.values(manifest.routes);
  const parents = new Set(routes.map((r) => r.parentId).filter(Boolean));
  return routes.filter((r) => r.hasDefaultExport !== false && !parents.has(r.id)).map((r) => r.id);
}

/**
 * Libraries only the server may run (ADR 0069): the browser validates nothing (the action's schema
 * is the one check) and formats London dates with `Intl` alone. Each is recognised in a built,
 * minified chunk by a string its code always carries, whatever part of the library is used: zod's
 * core names its base class `$ZodType` (zod and zod/mini alike); date-fns-tz's time-zone reader,
 * which all its functions use, builds an `America/New_York` formatter when its module loads and
 * keeps the regular expression of its fallback parser (both must be there, so that a page naming
 * that time zone is not mistaken for the library).
 */
export const SERVER_ONLY_LIBRARIES = [
  { name: "zod", markers: ["$ZodType"] },
  { name: "date-fns-tz", markers: ["America/New_York", String.raw`(\d+)\/(\d+)\/(\d+),? (\d+):(\d+):(\d+)`] },
];

/** The client files (URL paths under /assets/) holding a server-only library, with the library's name. */
export function serverOnlyLibrariesIn(files) {
  const found = [];
  for (const [file, text] of files) {
    for (const lib of SERVER_ONLY_LIBRARIES) if (lib.markers.every((m) => text.includes(m))) found.push({ file, library: lib.name });
  }
  return found;
}

/** Every JavaScript file the build gives the browser, as [URL path, text]. */
export function clientScripts(clientDir = CLIENT) {
  const dir = path.join(clientDir, "assets");
  return readdirSync(dir)
    .filter((f) => f.endsWith(".js"))
    .map((f) => [`/assets/${f}`, readFileSync(path.join(dir, f), "utf8")]);
}

function sizer(clientDir) {
  const cache = new Map();
  return (url) => {
    if (!cache.has(url)) {
      const bytes = readFileSync(path.join(clientDir, url.replace(/^\//, "")));
      cache.set(url, { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length });
    }
    return cache.get(url);
  };
}

/** Raw and gzip bytes of every page's first load, heaviest first. */
export function measure({ clientDir = CLIENT, manifest = readManifest(clientDir) } = {}) {
  const size = sizer(clientDir);
  return pageRouteIds(manifest)
    .map((id) => {
      const files = firstLoadFiles(manifest, id);
      const total = files.reduce((t, f) => ({ raw: t.raw + size(f).raw, gzip: t.gzip + size(f).gzip }), { raw: 0, gzip: 0 });
      return { id, files: files.length, ...total };
    })
    .sort((a, b) => b.gzip - a.gzip);
}

const kb = (n) => `${(n / 1024).toFixed(1)} KB`;

export function report(rows, { quiet = false } = {}) {
  const over = rows.filter((r) => r.gzip > budgetFor(r.id));
  const byId = new Map(rows.map((r) => [r.id, r]));
  const key = KEY_PAGES.filter(([, id]) => byId.has(id)).map(([label, id]) => ({ label, ...byId.get(id) }));
  const heaviest = rows.filter((r) => !key.some((k) => k.id === r.id)).slice(0, 5);
  const shown = quiet
    ? over.map((r) => ({ label: "", ...r }))
    : [
        ...key,
        ...heaviest.map((r) => ({ label: "", ...r })),
        ...over.filter((r) => !key.some((k) => k.id === r.id) && !heaviest.includes(r)).map((r) => ({ label: "", ...r })),
      ];
  const lines = [];
  if (shown.length) {
    const w = Math.max(...shown.map((r) => (r.label ? `${r.label} (${r.id})` : r.id).length), 4);
    lines.push(`${"page".padEnd(w)}  files       raw      gzip    budget`);
    for (const r of shown) {
      const name = r.label ? `${r.label} (${r.id})` : r.id;
      lines.push(
        `${name.padEnd(w)}  ${String(r.files).padStart(5)}  ${kb(r.raw).padStart(8)}  ${kb(r.gzip).padStart(8)}  ${kb(budgetFor(r.id)).padStart(8)}${r.gzip > budgetFor(r.id) ? "  OVER" : ""}`,
      );
    }
  }
  const unneeded = rows.filter((r) => r.id in CEILINGS_KB && r.gzip <= BUDGET_BYTES).map((r) => r.id);
  if (unneeded.length) lines.push(`within the goal: delete their ceilings in CEILINGS_KB: ${unneeded.join(", ")}`);
  const overGoal = rows.filter((r) => r.gzip > BUDGET_BYTES).length;
  const goal = `${rows.length - overGoal} of ${rows.length} pages within the ${kb(BUDGET_BYTES)} goal, ${overGoal} held at their ceilings`;
  lines.push(
    over.length
      ? `bundle budget: ${over.length} page(s) over budget (gzip first-load JavaScript): ${over.map((r) => r.id).join(", ")}`
      : `bundle budget: ok; ${goal}`,
  );
  return { ok: over.length === 0, text: lines.join("\n") };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const quiet = process.argv.includes("--quiet");
  try {
    const { ok, text } = report(measure(), { quiet });
    console.log(text);
    const leaks = serverOnlyLibrariesIn(clientScripts());
    for (const { file, library } of leaks) console.log(`server-only library in the browser's JavaScript: ${library} in ${file}`);
    if (leaks.length === 0 && !quiet)
      console.log(`server-only libraries: none in the browser's JavaScript (${SERVER_ONLY_LIBRARIES.map((l) => l.name).join(", ")})`);
    process.exit(ok && leaks.length === 0 ? 0 : 1);
  } catch (err) {
    console.error(`[bundle-budget] ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
}
