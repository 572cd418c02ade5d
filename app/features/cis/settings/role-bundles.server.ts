import { asc, eq } from "drizzle-orm";
import { dbFor, type Db } from "~/db/client.server";
import { roleBundles } from "~/db/schema";
import type { ActorAt } from "~/features/auth";
import { setRoleBundleScopesStatement } from "~/features/auth/index.server";
import { activityInsert, auditInsert } from "~/features/platform/index.server";
import { CIS_SCOPES, checkScopeBundles, isCisScope, type CisScope, type ScopeChecklist } from "../domain";
import type { Result } from "~/utils/result";

export type CisRoleBundle = {
  name: string;
  /** The bundle's CIS scopes that the grid shows (members of CIS_SCOPES). */
  cisScopes: CisScope[];
  /** Scopes starting with 'cis.' that the grid does not know (e.g. 'cis.*'); kept as they are. */
  otherCisScopes: string[];
  /** Opaque version for the optimistic check when saving. */
  updatedAt: number;
};

const isCisPrefixed = (s: string) => s.startsWith("cis.");

/** Role bundles of the tenant that hold any scope beginning 'cis.': the roles the settings page lists. */
export function roleBundlesQuery(db: Db, tenantId: string) {
  return db.select().from(roleBundles).where(eq(roleBundles.tenantId, tenantId)).orderBy(asc(roleBundles.name));
}

/** The bundles holding any CIS scope, with their scopes split into the grid's and unknown 'cis.' ones. */
export function toCisRoleBundles(rows: (typeof roleBundles.$inferSelect)[]): CisRoleBundle[] {
  return rows
    .filter((r) => (r.scopes ?? []).some(isCisPrefixed))
    .map((r) => ({
      name: r.name,
      cisScopes: CIS_SCOPES.filter((s) => r.scopes.includes(s)),
      otherCisScopes: r.scopes.filter((s) => isCisPrefixed(s) && !isCisScope(s)),
      updatedAt: r.updatedAt,
    }));
}

export async function listCisRoleBundles(env: Env, tenantId: string): Promise<CisRoleBundle[]> {
  return toCisRoleBundles(await roleBundlesQuery(dbFor(env, tenantId), tenantId));
}

/** The Scope Checklist for the listed bundles, judged on their CIS scopes. */
export function scopeChecklist(bundles: readonly CisRoleBundle[]): ScopeChecklist {
  return checkScopeBundles(bundles.map((b) => ({ name: b.name, scopes: [...b.cisScopes, ...b.otherCisScopes] })));
}

/**
 * The bundle's new scope list: every scope outside the grid (non-CIS ones and unknown 'cis.'
 * ones) exactly as it was and in its place, followed by the chosen grid scopes in CIS_SCOPES order.
 */
export function mergeCisScopes(current: readonly string[], chosen: readonly CisScope[]): string[] {
  const kept = current.filter((s) => !isCisScope(s));
  const wanted = new Set(chosen);
  return [...kept, ...CIS_SCOPES.filter((s) => wanted.has(s))];
}

/** "stale": changed by someone else since the form was rendered; "last_manager": nobody would keep cis.manage. */
export type UpdateBundleResult = Result<{ added: string[]; removed: string[] }, "not_found" | "stale" | "last_manager">;

const grantsManage = (scopes: readonly string[]) => scopes.some((s) => s === "cis.manage" || s === "cis.*" || s === "*");

/**
 * Replaces the CIS scopes of one role bundle of this tenant, keeping every other scope.
 * `expectedVersion` (the updatedAt the form was rendered with) guards against overwriting a
 * concurrent change. The change and its audit entry go in one batch. Scopes are read on every
 * request, so the change applies from the next request.
 */
export async function updateBundleCisScopes(
  env: Env,
  tenantId: string,
  name: string,
  chosen: readonly CisScope[],
  expectedVersion: number | null,
  actor: ActorAt,
  now = Date.now(),
): Promise<UpdateBundleResult> {
  const db = dbFor(env, tenantId);
  const all = await db.select().from(roleBundles).where(eq(roleBundles.tenantId, tenantId));
  const row = all.find((r) => r.name === name);
  if (!row) return { ok: false, code: "not_found" };
  if (expectedVersion !== null && row.updatedAt !== expectedVersion) return { ok: false, code: "stale" };

  const before = new Set(row.scopes.filter(isCisScope));
  const after = new Set(chosen);
  const added = CIS_SCOPES.filter((s) => after.has(s) && !before.has(s));
  const removed = CIS_SCOPES.filter((s) => before.has(s) && !after.has(s));
  const scopes = mergeCisScopes(row.scopes, chosen);
  // Keep a way back: someone must still be able to manage CIS permissions after this change.
  if (!grantsManage(scopes) && !all.some((r) => r.name !== name && grantsManage(r.scopes))) return { ok: false, code: "last_manager" };
  // Never move the version backwards or leave it unchanged, so a stale form is always caught.
  const version = Math.max(now, row.updatedAt + 1);

  await db.batch([
    setRoleBundleScopesStatement(db, { tenantId, name, scopes, version, expectedVersion: row.updatedAt }),
    auditInsert(
      db,
      {
        tenantId,
        action: "cis.permission.updated",
        actorId: actor.id,
        actorEmail: actor.email,
        targetType: "role_bundle",
        targetId: name,
        payload: { role: name, added, removed },
        ip: actor.ip,
      },
      now,
    ),
    activityInsert(
      db,
      {
        tenantId,
        module: "cis",
        action: "permissions.updated",
        entityType: "role_bundle",
        entityId: name,
        performedBy: actor.id,
        performedByName: actor.name,
        details: { role: name, added, removed },
      },
      now,
    ),
  ]);
  return { ok: true, added, removed };
}
