import { describe, expect, it } from "vitest";
import { budgetFor, BUDGET_BYTES, firstLoadFiles, pageRouteIds, report } from "./bundle-budget.mjs";

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
});
