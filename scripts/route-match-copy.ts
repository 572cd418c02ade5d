/// <reference types="node" />
/**
 * React Router's router modules copied into node_modules/.cache, as they are or with the
 * route-match memo's transform applied exactly as the Worker's build applies it (ADR 0084), and the
 * app's route tree as the build hands it to React Router. For scripts/route-match-memo.test.ts and
 * bench/route-match.ts, which compare React Router's own search with the remembered one.
 */
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import routeConfig from "../app/routes";
import { MEMO_MODULE, withMatchMemo } from "./route-match-memo.mjs";

export { MEMO_MODULE };

export const ROOT = path.resolve(import.meta.dirname, "..");
export const routerSource = (mode: "production" | "development") => path.join(ROOT, "node_modules", "react-router", "dist", mode, "lib", "router");

export type Route = { id: string; path?: string; index?: boolean; children?: Route[] };
export type Match = { route: Route; params: Record<string, string | undefined>; pathname: string; pathnameBase: string };
/** React Router's matcher with its branches ranked once, as its request handler uses it. */
export type Matcher = { update(routes: Route[]): void; match(path: string, allowPartial?: boolean): Match[] | null };

type ConfigEntry = { id?: string; file: string; path?: string; index?: boolean; children?: ConfigEntry[] };
const toRoute = (e: ConfigEntry): Route => ({ id: e.id ?? e.file, path: e.path, index: e.index, children: e.children?.map(toRoute) });

/** The app's whole route tree under its root layout. */
export function appRoutes(): Route[] {
  return [{ id: "root", path: "", children: (routeConfig as ConfigEntry[]).map(toRoute) }];
}

/**
 * A copy of React Router's production router modules in `node_modules/.cache/<name>` (inside
 * node_modules, so it resolves React Router's own dependencies as the original does), with the
 * memo's transform applied when `memo`. Returns its directory; `removeCopies(name)` deletes it.
 */
export function copyRouter(name: string, memo: boolean): string {
  const dir = path.join(ROOT, "node_modules", ".cache", name, memo ? "memo" : "plain");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(path.dirname(dir), { recursive: true });
  cpSync(routerSource("production"), dir, { recursive: true });
  if (memo) {
    const utils = path.join(dir, "utils.js");
    writeFileSync(utils, withMatchMemo(readFileSync(utils, "utf8")));
  }
  return dir;
}

export function removeCopies(name: string): void {
  rmSync(path.join(ROOT, "node_modules", ".cache", name), { recursive: true, force: true });
}

/** The copy's matcher, ranked over `routes`. */
export async function matcherIn(dir: string, routes: Route[]): Promise<Matcher> {
  const { V6RegExMatcher } = await import(pathToFileURL(path.join(dir, "matcher.js")).href);
  const matcher = new V6RegExMatcher("/") as Matcher;
  matcher.update(routes);
  return matcher;
}

/** A module of the copy, imported (the copy's own instance of what it imports). */
export async function importFrom<T>(dir: string, file: string): Promise<T> {
  return (await import(pathToFileURL(path.join(dir, file)).href)) as T;
}
