import { build, type Plugin, type Rolldown } from "vite";
import { describe, expect, it } from "vitest";
import { budgetFor, BUDGET_BYTES, CEILING_LIMIT_KB, CEILINGS_KB, firstLoadFiles, pageRouteIds, report, serverOnlyLibrariesIn } from "./bundle-budget.mjs";

// The shape of React Router's browser manifest, reduced to what the budget reads.
const manifest = {
  entry: { module: "/assets/entry.js", imports: ["/assets/react.js"] },
  routes: {
    root: { id: "root", module: "/assets/root.js", imports: ["/assets/react.js", "/assets/shell.js"], hasDefaultExport: true },
    layout: { id: "layout", parentId: "root", module: "/assets/layout.js", imports: [], hasDefaultExport: true },
    list: { id: "list", parentId: "layout", module: "/assets/list.js", imports: ["/assets/shell.js", "/assets/table.js"], hasDefaultExport: true },
    export: { id: "export", parentId: "layout", module: "/assets/export.js", imports: [], hasDefaultExport: false },
  },
};

describe("bundle budget", () => {
  it("counts the entry and every matched route from the root down, each file once", () => {
    expect(firstLoadFiles(manifest, "list")).toEqual([
      "/assets/entry.js",
      "/assets/react.js",
      "/assets/root.js",
      "/assets/shell.js",
      "/assets/layout.js",
      "/assets/list.js",
      "/assets/table.js",
    ]);
  });

  it("measures pages only: not layouts, not resource routes", () => {
    expect(pageRouteIds(manifest)).toEqual(["list"]);
  });

  it("fails a page over its budget and names it", () => {
    const within = report([{ id: "list", files: 7, raw: 1, gzip: BUDGET_BYTES }]);
    expect(within.ok).toBe(true);
    const over = report([{ id: "list", files: 7, raw: 1, gzip: BUDGET_BYTES + 1 }]);
    expect(over.ok).toBe(false);
    expect(over.text).toMatch(/over budget.*list/);
  });

  it("holds a page with a recorded ceiling to that ceiling, and any other page to the goal", () => {
    expect(budgetFor("cis-invoice-new")).toBeGreaterThan(BUDGET_BYTES);
    expect(budgetFor("some/new/page")).toBe(BUDGET_BYTES);
  });

  it("gives no page more room than the goal plus conform's chunk (the pages whose form is the page, ADR 0078)", () => {
    expect(CEILING_LIMIT_KB).toBe(128);
    for (const [id, kb] of Object.entries(CEILINGS_KB)) expect(kb, id).toBeLessThanOrEqual(CEILING_LIMIT_KB);
  });

  it("names a recorded ceiling the page no longer needs, without failing the run", () => {
    const lighter = report([{ id: "cis-invoice-new", files: 7, raw: 1, gzip: BUDGET_BYTES - 1 }]);
    expect(lighter.ok).toBe(true);
    expect(lighter.text).toMatch(/within the goal: delete (its|their) ceilings?.*cis-invoice-new/);
    expect(report([{ id: "cis-invoice-new", files: 7, raw: 1, gzip: BUDGET_BYTES + 1 }]).text).not.toMatch(/delete/);
  });
});

/** `code` built and minified as the production build does for the browser, as one chunk's text. */
async function builtForTheBrowser(code: string): Promise<string> {
  const entry: Plugin = { name: "entry", resolveId: (id) => (id === "entry" ? "\0entry" : null), load: (id) => (id === "\0entry" ? code : null) };
  const result = await build({
    configFile: false,
    root: process.cwd(),
    logLevel: "silent",
    plugins: [entry],
    build: { write: false, minify: true, rolldownOptions: { input: "entry" } },
  });
  const outputs = (Array.isArray(result) ? result : [result]) as Rolldown.RolldownOutput[];
  return outputs.flatMap((o) => o.output.flatMap((c) => (c.type === "chunk" ? [c.code] : []))).join("\n");
}

describe("server-only libraries in the browser's JavaScript", () => {
  const found = async (code: string) => serverOnlyLibrariesIn([["/assets/page.js", await builtForTheBrowser(code)]]).map((f) => f.library);

  it("finds zod in a minified chunk, whether a schema is built or only parsed with", async () => {
    expect(await found(`import { z } from "zod"; export const s = z.object({ a: z.string() }); console.log(s.safeParse({}));`)).toEqual(["zod"]);
    expect(await found(`import * as z from "zod/mini"; console.log(z.string().check(z.minLength(3)));`)).toEqual(["zod"]);
  }, 60_000);

  it("finds date-fns-tz through either of the functions the app uses", async () => {
    expect(await found(`import { formatInTimeZone } from "date-fns-tz"; console.log(formatInTimeZone(new Date(), "Europe/London", "yyyy"));`)).toEqual([
      "date-fns-tz",
    ]);
    expect(await found(`import { fromZonedTime } from "date-fns-tz"; console.log(fromZonedTime("2026-01-01T00:00", "Europe/London"));`)).toEqual([
      "date-fns-tz",
    ]);
  }, 60_000);

  it("does not mistake the app's own London date formatting for date-fns-tz", async () => {
    expect(await found(`import { formatDateTime } from "./app/utils/dates.ts"; console.log(formatDateTime(new Date()), "America/New_York");`)).toEqual([]);
  }, 60_000);
});
