// First-load JavaScript per page of the production build, against a budget.
//
//   node scripts/bundle-budget.mjs [--quiet]     (after `react-router build`; `npm run build` runs it)
//
// A page's first load is what its HTML asks the browser to fetch before it can hydrate: React
// Router's entry module and its imports, then the module and imports of every route that matches
// (root, layouts, the page), each file once. The sizes are gzip (level 9), like the transfer in a
// browser's network panel. Any page (a route that renders, not a resource route) over
// BUDGET_BYTES fails the run; the table lists the pages people open most, then the heaviest.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const CLIENT = path.join(ROOT, "build", "client");

/** The goal for every page: React and React Router alone are about 108.6 KB of it. */
export const BUDGET_BYTES = 120 * 1024;

/**
 * Pages over the goal, each held at its size plus about 2 KB so that it cannot grow unnoticed
 * (ADR 0057, measured 2026-11-27). React and React Router alone are 108.6 KB and the workspace
 * shell (root, app shell, toaster) about 5.7 KB more, which leaves a page some 5-6 KB of its own.
 * The pages with a form carry @conform-to/react (8.3 KB) for the fields' ids, errors and values;
 * the rest are tables, pickers and the public site's layout a few KB past the goal. Lower a
 * ceiling when a page gets lighter, and delete it once the page is within the goal. KB gzip, by
 * route id.
 */
export const CEILINGS_KB = {
  "cis-invoice-edit": 128,
  "cis-invoice-new": 128,
  "cis-portal-invite-existing": 125,
  "cis-portal-invite-new": 125,
  "cis-subcontractor-edit": 131,
  "cis-subcontractor-new": 131,
  "features/auth/routes/login": 128,
  "features/chat/routes/room": 123,
  "features/cis/invoices/routes/detail": 127,
  "features/cis/routes/settings": 126,
  "features/cis/routes/subcontractor-detail": 123,
  "features/cis/routes/subcontractors-list": 123,
  "features/files/routes/all": 128,
  "features/files/routes/file": 129,
  "features/files/routes/overview": 123,
  "features/files/routes/upload": 124,
  "features/files/signatures/routes/sign": 124,
  "features/marketing/routes/home": 133,
  "features/marketing/routes/privacy": 123,
  "features/marketing/routes/start-a-project": 131,
  "features/marketing/routes/terms": 123,
  "features/portal/routes/invoice-new": 125,
  "features/schedule/routes/view": 123,
  "features/superadmin/routes/console": 133,
  "features/team/routes/account": 130,
  "features/team/routes/activate": 128,
  "features/team/routes/reset-password": 128,
  "features/team/routes/users": 131,
  "features/tenant-settings/routes/branding": 152,
  "files-folders-path": 128,
  "files-folders-root": 128,
  "notes-folder": 123,
  "notes-folders": 123,
  // Merged 2026-11-27 with the notes editor's lazy loader, the drafts dialog and the actions menu
  // (notes) and the occurrence choice and attachments (calendar event pages).
  "features/notes/routes/new": 123,
  "features/notes/routes/note": 124,
  "notes-all": 124,
  "notes-bookmarks": 124,
  "notes-shared": 124,
  "notes-trash": 124,
  "schedule-event": 122,
  "schedule-new": 122,
};

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
    process.exit(ok ? 0 : 1);
  } catch (err) {
    console.error(`[bundle-budget] ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
}
