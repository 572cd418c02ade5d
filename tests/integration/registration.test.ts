/**
 * The composition roots are complete: what the code sends, grants, offers or schedules is
 * registered by some feature. Adding a job type, a scope, a module or a cron is then a
 * conscious step in the feature's own registration, not something to remember elsewhere.
 */
import type { RouteConfigEntry } from "@react-router/dev/routes";
import { describe, expect, it } from "vitest";
import { DEFAULT_ROLE_BUNDLES } from "~/features/auth/default-bundles";
import { scopeGrants, type Scope } from "~/features/auth/scopes";
import { MODULE_CATALOGUE } from "~/features/platform/module-catalogue";
import { JOB_DEFINITIONS } from "~/features/platform/jobs/definitions.server";
import { CRONS, cronRegistry } from "~/features/platform/jobs/features.server";
import { SERVER_FEATURES } from "~/jobs.server";
import routes from "~/routes";
import "~/scopes";
import wranglerToml from "../../wrangler.toml?raw";

/** The application's source text (tests aside), read at build time. */
const SOURCES: Record<string, string> = import.meta.glob(["/app/**/*.{ts,tsx}", "/workers/**/*.ts", "!**/*.test.ts"], {
  query: "?raw",
  import: "default",
  eager: true,
});

/** Every URL path the route config serves (prefix() gives an index route its prefix as path). */
function routePaths(entries: RouteConfigEntry[], parent = ""): string[] {
  return entries.flatMap((e) => {
    const path = [parent, e.path].filter(Boolean).join("/");
    return [...(e.index || e.path !== undefined ? [`/${path}`] : []), ...routePaths(e.children ?? [], path)];
  });
}

describe("registries", () => {
  it("offers in the module catalogue only modules whose page exists", () => {
    const paths = routePaths(routes);
    const missing = MODULE_CATALOGUE.filter((m) => !paths.includes(m.route)).map((m) => `${m.id} (${m.route})`);
    expect(missing).toEqual([]);
  });

  it("has a handler for every job type defined or sent anywhere, registered once", () => {
    const text = Object.values(SOURCES).join("\n");
    // A job type is written as a string or as a constant holding one.
    const constants = new Map([...text.matchAll(/\bconst ([A-Z][A-Z0-9_]*) = "([^"]+)"/g)].map((m) => [m[1], m[2]]));
    const typesAfter = (call: RegExp) =>
      [...text.matchAll(call)].map((m) => {
        const type = /\btype:\s*(?:"([^"]+)"|([A-Z][A-Z0-9_]*))/.exec(text.slice(m.index, m.index + 400));
        return type ? (type[1] ?? constants.get(type[2]) ?? `unresolved ${type[2]}`) : `no type after ${m[0]}`;
      });
    // Sent at once (enqueue) or written into the caller's batch and sent after commit (jobRowWhen).
    const sent = typesAfter(/\b(?:enqueue\(\s*env|jobRowWhen\(\s*\w+)\s*,\s*\{/g);
    const defined = typesAfter(/\bdefineJob\(\s*\{/g);
    // The scans find the calls (a change in how they are written would make them find none).
    expect(sent.length).toBeGreaterThanOrEqual(6);
    expect(defined.length).toBeGreaterThanOrEqual(7);
    expect([...sent, ...defined].filter((type) => !JOB_DEFINITIONS[type])).toEqual([]);

    const registered = SERVER_FEATURES.flatMap((f) => (f.jobs ?? []).map((j) => j.type));
    expect(new Set(registered).size).toBe(registered.length);
  });

  it("knows every scope the default role bundles grant", () => {
    const unknown = Object.values(DEFAULT_ROLE_BUNDLES)
      .flat()
      .filter((scope) => !scopeGrants([scope], scope as Scope));
    expect(unknown).toEqual([]);
  });

  it("schedules exactly the crons wrangler.toml triggers, each task named once", () => {
    const triggers = [...wranglerToml.matchAll(/^crons\s*=\s*\[([^\]]*)\]/gm)].map((m) => [...m[1].matchAll(/"([^"]+)"/g)].map((c) => c[1]).sort());
    expect(triggers.length).toBeGreaterThan(0);
    for (const crons of triggers) expect(crons).toEqual(Object.values(CRONS).sort());

    const registry = cronRegistry(SERVER_FEATURES);
    expect(Object.keys(registry).sort()).toEqual(Object.values(CRONS).sort());
    const names = Object.values(registry).flatMap((tasks) => tasks.map((t) => t.name));
    expect(new Set(names).size).toBe(names.length);
  });
});
