import { and, count, desc, eq, isNotNull, isNull, or, sql } from "drizzle-orm";
import { allShards, dbFor, fanOut, globalDb, HOME_SHARD, loadShardRoutes, shardDb, type Db } from "~/db/client.server";
import { auditEvents, modules, storageUsage, tenantModules, tenants, users } from "~/db/schema";
import type { ActorAt } from "~/features/auth";
import { insertDefaultRoleBundlesStatements, revokeTenantSessionsStatement } from "~/features/auth/index.server";
import { auditInsert, auditInsertWhere } from "~/features/platform/index.server";
import { isOfferedModule } from "~/features/platform";
import { resumeParkedWork } from "~/features/platform/index.server";
import { inviteUser } from "~/features/team/index.server";
import { newId } from "~/utils/ids";
import { AUDIT_PAGE_SIZE, type AuditFilter, type CreateTenantInput } from "./schemas";
import type { Result } from "~/utils/result";

export type CreateTenantError = "slug_taken";
export type SetTenantModuleError = "tenant_not_found" | "module_not_found" | "module_unavailable";
export type TenantStatusError = "tenant_not_found" | "already_suspended" | "not_suspended";

const GIB = 1024 ** 3;

function isSlugViolation(err: unknown): boolean {
  const text = `${err instanceof Error ? err.message : String(err)} ${err instanceof Error && err.cause instanceof Error ? err.cause.message : ""}`;
  return /UNIQUE constraint failed/i.test(text) && /tenants\.slug|tenants_slug_unique/i.test(text);
}

/**
 * A new tenant with its module rows (all off), default role bundles, storage tier or custom
 * limit and the audit entry, in one D1 batch. The first admin's invitation needs the tenant to
 * exist, so the caller sends it afterwards.
 *
 * `shard` places it on another database (an operator's choice, ADR 0064): the global row (whose
 * unique slug decides a race) and the platform's audit entry land first, then the tenant's own
 * rows on the shard in one batch there, with the module catalogue its foreign keys point at.
 */
export async function createTenant(
  env: Env,
  input: Pick<CreateTenantInput, "slug" | "name"> & Partial<Omit<CreateTenantInput, "slug" | "name">>,
  actor: ActorAt,
  { shard = HOME_SHARD }: { shard?: string } = {},
): Promise<Result<{ id: string }, CreateTenantError>> {
  const db = globalDb(env);
  const home = shard === HOME_SHARD;
  const target = shardDb(env, shard);
  const [[existing], catalogue] = await db.batch([
    db.select({ id: tenants.id }).from(tenants).where(eq(tenants.slug, input.slug)).limit(1),
    db.select().from(modules),
  ]);
  if (existing) return { ok: false, code: "slug_taken" };
  const id = newId();
  const now = Date.now();
  const tier = input.storageTier ?? "free";
  const customLimit = tier === "custom" && input.customLimitGib ? input.customLimitGib * GIB : null;
  const available = input.availableModules ?? null;
  const row = { id, slug: input.slug, name: input.name, branding: {}, availableModules: available, createdAt: now, updatedAt: now };
  const audit = auditInsert(db, {
    tenantId: null,
    action: "superadmin.tenant.created",
    actorId: actor.id,
    actorEmail: actor.email,
    targetType: "tenant",
    targetId: id,
    payload: { slug: input.slug, name: input.name, availableModules: available, storageTier: tier, customLimit },
    ip: actor.ip,
  });
  const tenantRows = (d: Db) => [
    ...catalogue.map((m) => d.insert(tenantModules).values({ tenantId: id, moduleId: m.id, enabled: false, config: {}, updatedAt: now })),
    ...insertDefaultRoleBundlesStatements(d, id, now),
    d.insert(storageUsage).values({ tenantId: id, tier, customLimit, createdAt: now, updatedAt: now }),
  ];
  try {
    if (home) await db.batch([db.insert(tenants).values(row), ...tenantRows(db), audit]);
    else await db.batch([db.insert(tenants).values({ ...row, shard }), audit]);
  } catch (err) {
    // Two creations racing past the check above meet the unique index; the loser's batch is refused whole.
    if (isSlugViolation(err)) return { ok: false, code: "slug_taken" };
    throw err;
  }
  if (!home) {
    const copyCatalogue = catalogue.map((m) => target.insert(modules).values(m).onConflictDoUpdate({ target: modules.id, set: m }));
    try {
      await target.batch([target.insert(tenants).values(row), ...copyCatalogue, ...tenantRows(target)]);
    } catch (err) {
      // Not left as a workspace whose shard holds nothing: the slug is free again.
      await db.delete(tenants).where(eq(tenants.id, id));
      throw err;
    }
    await loadShardRoutes(env, { force: true });
  }
  return { ok: true, id };
}

export type FirstAdminInvite = "sent" | "email_taken" | "invalid_email";

/**
 * Creates the tenant, then invites its first admin by e-mail. The invitation reads the tenant in
 * its own batch, so the two cannot share one: the tenant lands first, and a failed invitation
 * leaves it in place for the console to report (and to invite again from the team pages).
 */
export async function createTenantWithAdmin(
  env: Env,
  input: CreateTenantInput,
  actor: ActorAt,
): Promise<Result<{ id: string; invite: FirstAdminInvite }, CreateTenantError>> {
  const created = await createTenant(env, input, actor);
  if (!created.ok) return created;
  const invited = await inviteUser(env, {
    tenantId: created.id,
    email: input.adminEmail,
    role: "admin",
    actor: { id: actor.id, email: actor.email, name: actor.name },
  });
  return { ok: true, id: created.id, invite: invited.ok ? "sent" : invited.code };
}

export async function setTenantModule(
  env: Env,
  { tenantId, moduleId, enabled }: { tenantId: string; moduleId: string; enabled: boolean },
  actor: ActorAt,
): Promise<Result<void, SetTenantModuleError>> {
  const db = dbFor(env, tenantId);
  const [[tenant], [mod]] = await db.batch([
    db.select({ availableModules: tenants.availableModules }).from(tenants).where(eq(tenants.id, tenantId)).limit(1),
    db.select({ id: modules.id }).from(modules).where(eq(modules.id, moduleId)).limit(1),
  ]);
  if (!tenant) return { ok: false, code: "tenant_not_found" };
  if (!mod || !isOfferedModule(mod.id)) return { ok: false, code: "module_not_found" };
  if (enabled && tenant.availableModules && !tenant.availableModules.includes(moduleId)) return { ok: false, code: "module_unavailable" };
  const now = Date.now();
  await db.batch([
    db
      .insert(tenantModules)
      .values({ tenantId, moduleId, enabled, config: {}, updatedAt: now })
      .onConflictDoUpdate({ target: [tenantModules.tenantId, tenantModules.moduleId], set: { enabled, updatedAt: now } }),
    auditInsert(db, {
      tenantId: null,
      action: enabled ? "superadmin.module.enabled" : "superadmin.module.disabled",
      actorId: actor.id,
      actorEmail: actor.email,
      targetType: "tenant",
      targetId: tenantId,
      payload: { moduleId },
      ip: actor.ip,
    }),
  ]);
  return { ok: true };
}

/**
 * Suspends or reinstates a tenant. Suspending also ends every session of the tenant (staff and
 * portal) in the same batch. The UPDATE is conditional on the current state and the audit entry
 * is written only if it matched, so a double submit records one change. While suspended, the
 * tenant's jobs and e-mails are parked by their consumers; reinstating queues them again (only
 * the request whose UPDATE matched does; should the queue refuse, the hourly housekeeping does).
 */
export async function setTenantSuspended(
  env: Env,
  tenantId: string,
  suspend: boolean,
  actor: ActorAt,
): Promise<Result<{ slug: string; name: string }, TenantStatusError>> {
  const db = globalDb(env);
  const [tenant] = await db
    .select({ slug: tenants.slug, name: tenants.name, suspendedAt: tenants.suspendedAt, shard: tenants.shard })
    .from(tenants)
    .where(eq(tenants.id, tenantId))
    .limit(1);
  if (!tenant) return { ok: false, code: "tenant_not_found" };
  if (suspend && tenant.suspendedAt !== null) return { ok: false, code: "already_suspended" };
  if (!suspend && tenant.suspendedAt === null) return { ok: false, code: "not_suspended" };
  const now = Date.now();
  const audit = (d: Db) =>
    // Written only when this request's UPDATE changed the state (updated_at is this request's now).
    auditInsertWhere(
      d,
      {
        tenantId: null,
        action: suspend ? "superadmin.tenant.suspended" : "superadmin.tenant.reinstated",
        actorId: actor.id,
        actorEmail: actor.email,
        targetType: "tenant",
        targetId: tenantId,
        payload: { slug: tenant.slug, name: tenant.name },
        ip: actor.ip,
      },
      sql`EXISTS (SELECT 1 FROM ${tenants} WHERE ${tenants.id} = ${tenantId} AND ${tenants.updatedAt} = ${now}
            AND ${suspend ? sql`${tenants.suspendedAt} = ${now}` : sql`${tenants.suspendedAt} IS NULL`})`,
      { now },
    );
  const onShard = (d: Db) => [suspensionUpdate(d, tenantId, suspend, now), ...(suspend ? [revokeTenantSessionsStatement(d, tenantId, now)] : [])] as const;
  await loadShardRoutes(env);
  const shard = dbFor(env, tenantId);
  let changed: boolean;
  if (shard === db) {
    changed = (await db.batch([...onShard(db), audit(db)]))[0].length > 0;
  } else {
    // The shard's copy is what its sessions, jobs and e-mails are checked against: it goes first,
    // then the global row (the console and routing) with the platform's audit entry.
    changed = (await shard.batch(onShard(shard)))[0].length > 0;
    if (changed) await db.batch([suspensionUpdate(db, tenantId, suspend, now), audit(db)]);
  }
  if (!changed) return { ok: false, code: suspend ? "already_suspended" : "not_suspended" };
  if (!suspend) {
    try {
      await resumeParkedWork(env, tenantId);
    } catch (err) {
      // The tenant is reinstated either way; its parked work stays parked for housekeeping to queue.
      console.error(`Could not queue the parked work of tenant ${tenantId}`, err);
    }
  }
  return { ok: true, slug: tenant.slug, name: tenant.name };
}

/** The conditional change of a tenants row's state: matches only while it is not yet what is asked. */
function suspensionUpdate(d: Db, tenantId: string, suspend: boolean, now: number) {
  return d
    .update(tenants)
    .set({ suspendedAt: suspend ? now : null, updatedAt: now })
    .where(and(eq(tenants.id, tenantId), suspend ? isNull(tenants.suspendedAt) : isNotNull(tenants.suspendedAt)))
    .returning({ id: tenants.id });
}

/**
 * What one shard knows of its workspaces for the console: enabled modules, storage and user counts.
 * The home shard's three reads go in the console's own batch; another shard's are one batch there.
 */
function shardFigures(db: Db) {
  return [
    db.select({ tenantId: tenantModules.tenantId, moduleId: tenantModules.moduleId }).from(tenantModules).where(eq(tenantModules.enabled, true)),
    db
      .select({ tenantId: storageUsage.tenantId, tier: storageUsage.tier, customLimit: storageUsage.customLimit, usedBytes: storageUsage.usedBytes })
      .from(storageUsage),
    db.select({ tenantId: users.tenantId, users: count() }).from(users).groupBy(users.tenantId),
  ] as const;
}

/** The console's figures from a shard other than the home one, in one batch there. */
async function shardConsoleFigures(db: Db) {
  return db.batch(shardFigures(db));
}

/**
 * The console's tenants table: tenants, modules, storage and user counts in one D1 batch while
 * every workspace lives in the home database. Workspaces on other shards (ADR 0064) are counted
 * from those shards, read at the same time as the batch.
 */
export async function consoleTenants(env: Env) {
  const db = globalDb(env);
  const [[allTenants, catalogue, homeSettings, homeStorage, homeUsers], elsewhere] = await Promise.all([
    db.batch([
      db
        .select({
          id: tenants.id,
          slug: tenants.slug,
          name: tenants.name,
          availableModules: tenants.availableModules,
          suspendedAt: tenants.suspendedAt,
          createdAt: tenants.createdAt,
        })
        .from(tenants)
        .orderBy(tenants.slug),
      db.select({ id: modules.id, label: modules.label }).from(modules).orderBy(modules.sortOrder),
      ...shardFigures(db),
    ]),
    fanOut(env, shardConsoleFigures, { home: false }),
  ]);
  const settings = [...homeSettings, ...elsewhere.flatMap((s) => s.result[0])];
  const storage = [...homeStorage, ...elsewhere.flatMap((s) => s.result[1])];
  const userCounts = [...homeUsers, ...elsewhere.flatMap((s) => s.result[2])];
  return allTenants.map((t) => {
    const s = storage.find((r) => r.tenantId === t.id);
    return {
      id: t.id,
      slug: t.slug,
      name: t.name,
      createdAt: t.createdAt,
      status: t.suspendedAt === null ? ("active" as const) : ("suspended" as const),
      suspendedAt: t.suspendedAt,
      // A tenant with no storage row yet is on the free tier (the files area creates the row on first use).
      storage: { tier: s?.tier ?? "free", customLimit: s?.customLimit ?? null, usedBytes: s?.usedBytes ?? 0 },
      users: userCounts.find((u) => u.tenantId === t.id)?.users ?? 0,
      // Only modules the code offers: the table may still list some from an older catalogue.
      modules: catalogue
        .filter((m) => isOfferedModule(m.id))
        .map((m) => ({
          id: m.id,
          label: m.label,
          available: !t.availableModules || t.availableModules.includes(m.id),
          enabled: settings.some((r) => r.tenantId === t.id && r.moduleId === m.id),
        })),
    };
  });
}

/** The audit rows matching the console's filter (a tenant's own events and the console's actions on it). */
function auditWhere(filter: AuditFilter) {
  const tenantCondition = filter.tenant
    ? filter.tenant === "platform"
      ? isNull(auditEvents.tenantId)
      : or(
          eq(auditEvents.tenantId, filter.tenant),
          and(isNull(auditEvents.tenantId), eq(auditEvents.targetType, "tenant"), eq(auditEvents.targetId, filter.tenant)),
        )
    : undefined;
  return and(tenantCondition, filter.action ? eq(auditEvents.action, filter.action) : undefined);
}

const auditColumns = {
  id: auditEvents.id,
  tenantId: auditEvents.tenantId,
  action: auditEvents.action,
  actorEmail: auditEvents.actorEmail,
  targetType: auditEvents.targetType,
  targetId: auditEvents.targetId,
  payload: auditEvents.payload,
  ip: auditEvents.ip,
  createdAt: auditEvents.createdAt,
};

/** One shard's newest `upTo` matching rows and its count, for merging with the home batch. */
async function shardAuditRows(db: Db, where: ReturnType<typeof auditWhere>, upTo: number) {
  return db.batch([
    db.select(auditColumns).from(auditEvents).where(where).orderBy(desc(auditEvents.createdAt), desc(auditEvents.id)).limit(upTo),
    db.select({ n: count() }).from(auditEvents).where(where),
  ]);
}

type AuditRow = { id: string; createdAt: number };
const newestFirst = (a: AuditRow, b: AuditRow) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/**
 * One page of the platform audit log, newest first, in one D1 batch with its total and the
 * tenants for the filter. A tenant's filter shows its own events and the console's actions on it.
 * Workspaces on other shards keep their audit there (ADR 0064): with shards, each shard gives its
 * newest rows up to the end of the page, and the page is cut from them all merged by time.
 */
export async function platformAuditPage(env: Env, filter: AuditFilter) {
  const db = globalDb(env);
  const where = auditWhere(filter);
  const sharded = allShards(env).length > 1;
  const upTo = filter.page * AUDIT_PAGE_SIZE;
  const [[rows, [total], tenantList], elsewhere] = await Promise.all([
    db.batch([
      db
        .select(auditColumns)
        .from(auditEvents)
        .where(where)
        .orderBy(desc(auditEvents.createdAt), desc(auditEvents.id))
        .limit(sharded ? upTo : AUDIT_PAGE_SIZE)
        .offset(sharded ? 0 : (filter.page - 1) * AUDIT_PAGE_SIZE),
      db.select({ n: count() }).from(auditEvents).where(where),
      db.select({ id: tenants.id, slug: tenants.slug, name: tenants.name }).from(tenants).orderBy(tenants.slug),
    ]),
    sharded ? fanOut(env, (shard) => shardAuditRows(shard, where, upTo), { home: false }) : Promise.resolve([]),
  ]);
  const merged = sharded ? [...rows, ...elsewhere.flatMap((s) => s.result[0])].sort(newestFirst).slice(upTo - AUDIT_PAGE_SIZE, upTo) : rows;
  const slugs = new Map(tenantList.map((t) => [t.id, t.slug]));
  return {
    rows: merged.map((r) => ({ ...r, tenantSlug: r.tenantId ? (slugs.get(r.tenantId) ?? null) : null })),
    total: (total?.n ?? 0) + elsewhere.reduce((sum, s) => sum + (s.result[1][0]?.n ?? 0), 0),
    tenants: tenantList,
  };
}
