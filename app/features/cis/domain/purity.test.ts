import { readFileSync, readdirSync } from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * The rules engine must stay pure (no data access, router, runtime or server
 * modules) and runtime-neutral (no Node built-ins outside tests), so it runs
 * unchanged in Workers, in Node and in the browser. ESLint enforces the first
 * half; this test enforces both, and fails even when lint is not run.
 */
const DOMAIN_DIR = path.dirname(fileURLToPath(import.meta.url));

const isTestFile = (file: string) => /\.test(-support)?\.ts$/.test(file);

function importSpecifiers(source: string): string[] {
  const specs: string[] = [];
  const patterns = [
    /\b(?:import|export)\s+(?:type\s+)?(?:[\w*{}\s,$]+?\s+from\s+)?["']([^"']+)["']/g,
    /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g,
    /\brequire\s*\(\s*["']([^"']+)["']\s*\)/g,
  ];
  for (const re of patterns) for (const m of source.matchAll(re)) specs.push(m[1]!);
  return specs;
}

const NODE_BUILTINS = new Set(builtinModules.filter((m) => !m.startsWith("_")));

function forbiddenReason(spec: string, inTest: boolean): string | null {
  if (spec === "drizzle-orm" || spec.startsWith("drizzle-orm/")) return "data access (drizzle-orm)";
  if (spec === "react-router" || spec.startsWith("react-router/") || spec.startsWith("@react-router/")) return "router";
  if (spec.startsWith("cloudflare:")) return "Workers runtime module";
  if (/\.server(\.tsx?)?$/.test(spec) || /\.server\//.test(spec)) return "server module";
  if (!inTest && (spec.startsWith("node:") || NODE_BUILTINS.has(spec.split("/")[0]!))) return "Node built-in";
  return null;
}

function violations(source: string, inTest: boolean): string[] {
  return importSpecifiers(source)
    .map((spec) => [spec, forbiddenReason(spec, inTest)] as const)
    .filter(([, reason]) => reason !== null)
    .map(([spec, reason]) => `${spec} (${reason})`);
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return tsFiles(full);
    return e.name.endsWith(".ts") ? [full] : [];
  });
}

describe("domain purity", () => {
  // This file quotes forbidden imports as fixtures for the checker, so it is not scanned itself.
  const self = fileURLToPath(import.meta.url);
  const files = tsFiles(DOMAIN_DIR).filter((f) => f !== self);

  it("finds the domain's files", () => {
    expect(files.some((f) => f.endsWith("index.ts"))).toBe(true);
    expect(files.some((f) => f.endsWith(path.join("xml", "irmark.ts")))).toBe(true);
  });

  it.each(files.map((f) => [path.relative(DOMAIN_DIR, f), f]))("%s imports nothing forbidden", (_rel, file) => {
    expect(violations(readFileSync(file, "utf8"), isTestFile(file))).toEqual([]);
  });

  it("the checker catches each forbidden kind of import", () => {
    expect(violations(`import { eq } from "drizzle-orm";`, false)).toEqual(["drizzle-orm (data access (drizzle-orm))"]);
    expect(violations(`import { sqliteTable } from 'drizzle-orm/sqlite-core'`, true)).toHaveLength(1);
    expect(violations(`import { redirect } from "react-router";`, false)).toHaveLength(1);
    expect(violations(`import type { Route } from "@react-router/dev/routes";`, false)).toHaveLength(1);
    expect(violations(`import { env } from "cloudflare:workers";`, false)).toHaveLength(1);
    expect(violations(`import { db } from "~/lib/db.server";`, false)).toHaveLength(1);
    expect(violations(`import { db } from "../../lib/db.server.ts";`, false)).toHaveLength(1);
    expect(violations(`export * from "./queries.server";`, false)).toHaveLength(1);
    expect(violations(`const m = await import("drizzle-orm");`, false)).toHaveLength(1);
    expect(violations(`import {\n  createHash,\n} from "node:crypto";`, false)).toEqual(["node:crypto (Node built-in)"]);
    expect(violations(`import fs from "fs";`, false)).toHaveLength(1);
    expect(violations(`import fs from "fs";`, true)).toEqual([]);
    expect(violations(`import { z } from "zod"; import { x } from "./money";`, false)).toEqual([]);
  });
});
