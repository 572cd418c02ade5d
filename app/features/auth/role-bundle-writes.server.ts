import { and, eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { roleBundles } from "~/db/schema";
import { forTenant } from "~/db/tenancy";
import { DEFAULT_ROLE_BUNDLES } from "./default-bundles";

/**
 * Writes to role_bundles (a table sign-in owns: the scopes each role grants) that other features
 * need, as statements for the caller's D1 batch, so the change and its audit entry land together.
 */

/** A new workspace's role bundles, each with its default scopes. */
export function insertDefaultRoleBundlesStatements(db: Db, tenantId: string, now: number) {
  return Object.entries(DEFAULT_ROLE_BUNDLES).map(([name, scopes]) => db.insert(roleBundles).values({ tenantId, name, scopes, updatedAt: now }));
}

/**
 * One role bundle's new scope list and version, only while the bundle is still at the version
 * the change was worked out from (a concurrent change makes it match nothing).
 */
export function setRoleBundleScopesStatement(db: Db, opts: { tenantId: string; name: string; scopes: string[]; version: number; expectedVersion: number }) {
  return db
    .update(roleBundles)
    .set({ scopes: opts.scopes, updatedAt: opts.version })
    .where(and(forTenant(roleBundles, opts.tenantId), eq(roleBundles.name, opts.name), eq(roleBundles.updatedAt, opts.expectedVersion)));
}
