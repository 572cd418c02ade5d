import type { BatchItem } from "drizzle-orm/batch";
import { createContext, type RouterContextProvider } from "react-router";
import type { Db } from "~/db/client.server";

/**
 * A page's own D1 batch run in the tenant middleware's batch (ADR 0082), so a list page costs one
 * round trip instead of two. A feature registers, for a page's exact path, the function that builds
 * the statements its loader batches; the middleware runs them with the tenant's lookup and session
 * when it already knows the tenant's id (from an earlier request to this isolate) and the same batch
 * confirms it. The loader still guards first, then takes the results instead of asking D1: what was
 * read before the guard is never returned unless the guard passes.
 */
export type PagePrefetch = {
  /** The page's path, exactly (its data requests, `<path>.data`, are the same page). */
  path: string;
  /** The statements the page's loader batches for this tenant and address, at `now`. */
  statements(env: Env, db: Db, tenantId: string, url: URL, now: Date): readonly BatchItem<"sqlite">[] | Promise<readonly BatchItem<"sqlite">[]>;
};

/** What the middleware read for the page: the results of its statements, in order, for this tenant and time. */
export type PagePrefetched = { path: string; tenantId: string; now: Date; results: readonly unknown[] };

const registry = new Map<string, PagePrefetch>();

export function registerPagePrefetch(prefetch: PagePrefetch): void {
  registry.set(prefetch.path, prefetch);
}

/** The prefetch of a GET for this path, or null. Another method (an action, then its revalidation) reads after it has written: never prefetched. */
export function pagePrefetchFor(method: string, pathname: string): PagePrefetch | null {
  if (method !== "GET") return null;
  return registry.get(pathname.endsWith(".data") ? pathname.slice(0, -".data".length) : pathname) ?? null;
}

export const pagePrefetchContext = createContext<PagePrefetched | null>(null);

/**
 * The results read for this page and tenant, once: a second call (or another page, or another
 * tenant's id) gets null and asks D1 itself.
 */
export function takePagePrefetch(context: Readonly<RouterContextProvider>, path: string, tenantId: string): PagePrefetched | null {
  const got = context.get(pagePrefetchContext);
  if (!got || got.path !== path || got.tenantId !== tenantId) return null;
  (context as RouterContextProvider).set(pagePrefetchContext, null);
  return got;
}

// Each slug's tenant id as last read by this isolate. A hint only: a prefetch is used only when the
// same batch reads the slug's tenant with this id. Bounded: cleared when it grows past the bound.
const TENANT_IDS_MAX = 10_000;
const tenantIds = new Map<string, string>();

export function knownTenantId(slug: string): string | null {
  return tenantIds.get(slug) ?? null;
}

export function rememberTenantId(slug: string, tenantId: string): void {
  if (tenantIds.get(slug) === tenantId) return;
  if (tenantIds.size >= TENANT_IDS_MAX) tenantIds.clear();
  tenantIds.set(slug, tenantId);
}
