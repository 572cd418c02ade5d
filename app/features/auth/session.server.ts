import { and, eq, gt, inArray, isNull, lt, or, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { createCookie } from "react-router";
import { dbFor, globalDb, sumOverShards, type Db } from "~/db/client.server";
import { preparedStatement, type Placeholders } from "~/db/prepared.server";
import { insertWhere } from "~/db/insert-where.server";
import { forTenant } from "~/db/tenancy";
import { notifications, platformAdmins, roleBundles, sessions, tenants, users, type SessionKind } from "~/db/schema";
import type { SessionUser } from "~/context";
import { auditInsert, auditInsertWhere, type AuditEntry } from "~/features/platform/index.server";
import { UNREAD_COUNT_CAP } from "~/features/platform";
import { secureCookies, sessionSecrets } from "~/features/platform/index.server";
import { newId, sha256Hex } from "~/utils/ids";
import { readShellCounts, shellCountsColumn, shellCountsVersion } from "./shell-counts.server";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

export const SESSION_POLICY: Record<SessionKind, { idleMs: number; absoluteMs: number }> = {
  staff: { idleMs: 12 * HOUR, absoluteMs: 7 * 24 * HOUR },
  platform: { idleMs: 1 * HOUR, absoluteMs: 12 * HOUR },
  portal: { idleMs: 1 * HOUR, absoluteMs: 8 * HOUR },
};
/** last_seen is written at most this often, so reads stay reads. */
const TOUCH_INTERVAL_MS = 5 * MINUTE;

function cookieFor(env: Env, kind: SessionKind) {
  const secure = secureCookies(env);
  const base = kind === "portal" ? "portal" : "session";
  // __Host- requires Secure, path=/ and no Domain: the cookie stays on the host that set it.
  return createCookie(secure ? `__Host-${base}` : base, {
    httpOnly: true,
    sameSite: "lax",
    secure,
    path: "/",
    secrets: sessionSecrets(env),
  });
}

export async function readSessionToken(env: Env, request: Request, kind: SessionKind): Promise<string | null> {
  const v = await cookieFor(env, kind).parse(request.headers.get("Cookie"));
  return typeof v === "string" && v.length >= 32 ? v : null;
}

type NewSession = {
  kind: SessionKind;
  tenantId: string | null;
  userId: string;
  ip: string | null;
  /** Portal sessions: the staff member who was shown the link that opened it. */
  portalLinkRevealedBy?: string | null;
};

export async function newSession(env: Env, opts: NewSession) {
  const token = newId(32);
  const idHash = await sha256Hex(token);
  const now = Date.now();
  const policy = SESSION_POLICY[opts.kind];
  const insert = dbFor(env, opts.tenantId)
    .insert(sessions)
    .values({
      idHash,
      kind: opts.kind,
      tenantId: opts.tenantId,
      userId: opts.userId,
      createdAt: now,
      lastSeenAt: now,
      idleExpiresAt: now + policy.idleMs,
      absoluteExpiresAt: now + policy.absoluteMs,
      ip: opts.ip,
      portalLinkRevealedBy: opts.portalLinkRevealedBy ?? null,
    });
  const setCookie = await cookieFor(env, opts.kind).serialize(token, { maxAge: Math.floor(policy.absoluteMs / 1000) });
  return { insert, setCookie, idHash };
}

export async function createSession(env: Env, opts: NewSession): Promise<{ setCookie: string; idHash: string }> {
  const { insert, setCookie, idHash } = await newSession(env, opts);
  await insert;
  return { setCookie, idHash };
}

export async function clearSessionCookie(env: Env, kind: SessionKind): Promise<string> {
  return cookieFor(env, kind).serialize("", { maxAge: 0 });
}

function liveSession(now: number | SQLWrapper) {
  return and(isNull(sessions.revokedAt), gt(sessions.idleExpiresAt, now), gt(sessions.absoluteExpiresAt, now));
}

/** Moves a live session's idle expiry on, at most once per few minutes (after the response when ctx is given). */
export async function touchSession(
  env: Env,
  ctx: ExecutionContext | null,
  tenantId: string | null,
  row: { idHash: string; lastSeenAt: number; kind: SessionKind; absoluteExpiresAt: number },
) {
  const now = Date.now();
  if (now - row.lastSeenAt < TOUCH_INTERVAL_MS) return;
  const idle = Math.min(now + SESSION_POLICY[row.kind].idleMs, row.absoluteExpiresAt);
  const p = dbFor(env, tenantId).update(sessions).set({ lastSeenAt: now, idleExpiresAt: idle }).where(eq(sessions.idHash, row.idHash));
  if (ctx) ctx.waitUntil(p.then(() => undefined));
  else await p;
}

/**
 * The live staff session a token hash names on the tenant with this slug, with its user and
 * role bundle as they are now. A statement, so the request can batch it with the tenant's own.
 */
export function staffSessionStatement(db: Db, tenantSlug: string, idHash: string, now = Date.now()) {
  return staffSessionBySlug(db, { tenantSlug, idHash, now });
}

// Every signed-in tenant page asks for it: built once per database (and per set of shell counts,
// which features register at start-up), bound to the request's slug, token hash and time.
const staffSessionBySlug = preparedStatement(
  (db, p: Placeholders<{ tenantSlug: string; idHash: string; now: number }>) =>
    db
      .select({
        // Only columns whose names differ: inside a D1 batch rows come back keyed by column name.
        s: {
          idHash: sessions.idHash,
          kind: sessions.kind,
          createdAt: sessions.createdAt,
          lastSeenAt: sessions.lastSeenAt,
          absoluteExpiresAt: sessions.absoluteExpiresAt,
        },
        u: {
          id: users.id,
          tenantId: users.tenantId,
          email: users.email,
          displayName: users.displayName,
          role: users.role,
          themePreference: users.themePreference,
          userStatus: users.userStatus,
          passwordChangedAt: users.passwordChangedAt,
        },
        scopes: roleBundles.scopes,
        // The shell's unread count rides on the session's own statement, so it costs no round
        // trip; counting stops at the cap, so a neglected inbox costs no more than a busy one.
        unread: sql<number>`(SELECT count(*) FROM (SELECT 1 FROM ${notifications} WHERE ${notifications.tenantId} = ${sessions.tenantId}
        AND ${notifications.targetUserId} = ${users.id} AND ${notifications.read} = 0 LIMIT ${UNREAD_COUNT_CAP}))`.as("unread"),
        // Counts features show beside their module's link (unread chat messages), in the same statement.
        moduleCounts: shellCountsColumn(sql`${sessions.tenantId}`, sql`${users.id}`).as("module_counts"),
      })
      .from(sessions)
      .innerJoin(tenants, and(eq(tenants.id, sessions.tenantId), eq(tenants.slug, p.tenantSlug)))
      .innerJoin(users, and(eq(users.id, sessions.userId), eq(users.tenantId, sessions.tenantId)))
      .leftJoin(roleBundles, and(eq(roleBundles.tenantId, sessions.tenantId), eq(roleBundles.name, users.role)))
      .where(and(eq(sessions.idHash, p.idHash), eq(sessions.kind, "staff"), liveSession(p.now), eq(users.disabled, false)))
      .limit(1),
  shellCountsVersion,
);

type StaffSessionRow = Awaited<ReturnType<ReturnType<typeof staffSessionStatement>["all"]>>[number];

/** The signed-in staff member from a session row, or null when a password change has ended it. */
export async function staffSessionUser(env: Env, ctx: ExecutionContext | null, row: StaffSessionRow | undefined, idHash: string): Promise<SessionUser | null> {
  if (!row) return null;
  // A password change ends every session created before it.
  if (row.s.createdAt < row.u.passwordChangedAt) return null;
  await touchSession(env, ctx, row.u.tenantId, row.s);
  return {
    kind: "staff",
    id: row.u.id,
    tenantId: row.u.tenantId,
    email: row.u.email,
    displayName: row.u.displayName,
    role: row.u.role,
    scopes: row.scopes ?? [],
    themePreference: row.u.themePreference,
    userStatus: row.u.userStatus,
    sessionIdHash: idHash,
    unreadNotifications: Number(row.unread) || 0,
    moduleCounts: readShellCounts(row.moduleCounts),
  };
}

/** The hash of the staff session token the request carries, or null without one. */
export async function staffSessionHash(env: Env, request: Request): Promise<string | null> {
  const token = await readSessionToken(env, request, "staff");
  return token ? sha256Hex(token) : null;
}

export async function loadPlatformSession(env: Env, ctx: ExecutionContext | null, request: Request): Promise<SessionUser | null> {
  const token = await readSessionToken(env, request, "platform");
  if (!token) return null;
  const idHash = await sha256Hex(token);
  const now = Date.now();
  const [row] = await globalDb(env)
    .select({ s: sessions, a: platformAdmins })
    .from(sessions)
    .innerJoin(platformAdmins, eq(platformAdmins.id, sessions.userId))
    .where(and(eq(sessions.idHash, idHash), eq(sessions.kind, "platform"), isNull(sessions.tenantId), liveSession(now), eq(platformAdmins.disabled, false)))
    .limit(1);
  if (!row) return null;
  await touchSession(env, ctx, null, row.s);
  const scopes = [...row.a.scopes];
  if (isSuperAdmin(row.a) && !scopes.includes("system.superadmin")) scopes.push("system.superadmin");
  return {
    kind: "platform",
    id: row.a.id,
    tenantId: null,
    email: row.a.email,
    displayName: row.a.displayName,
    role: "superadmin",
    scopes,
    themePreference: "system",
    userStatus: "active",
    sessionIdHash: idHash,
    unreadNotifications: 0,
    moduleCounts: {},
  };
}

/** A super-admin is anyone with isSuperAdmin, isSuper or the 'system.superadmin' key; any one of the three is enough. */
export function isSuperAdmin(a: { isSuperAdmin: boolean; isSuper: boolean; scopes: string[] }): boolean {
  return a.isSuperAdmin || a.isSuper || a.scopes.includes("system.superadmin");
}

/** Ends one session: a staff or portal one in its tenant's database, a platform one (null) in the platform's. */
export async function revokeSession(env: Env, tenantId: string | null, idHash: string): Promise<void> {
  await dbFor(env, tenantId)
    .update(sessions)
    .set({ revokedAt: Date.now() })
    .where(and(eq(sessions.idHash, idHash), isNull(sessions.revokedAt)));
}

/**
 * Completes a sign-in: the session this browser presented in its cookie (if any) is revoked, the
 * new one created and the sign-in audited, in one D1 batch. A sign-in replaces the browser's
 * session rather than sitting beside it, so a session planted in the browser before (or left
 * there by someone else) stops working.
 */
export async function replaceSession(
  env: Env,
  request: Request,
  opts: { kind: "staff"; tenantId: string; userId: string; ip: string | null } | { kind: "platform"; tenantId: null; userId: string; ip: string | null },
  audit: AuditEntry,
): Promise<{ setCookie: string }> {
  const db = dbFor(env, opts.tenantId);
  const presented = await readSessionToken(env, request, opts.kind);
  const { insert, setCookie } = await newSession(env, opts);
  const tenantCondition = opts.tenantId === null ? isNull(sessions.tenantId) : eq(sessions.tenantId, opts.tenantId);
  const audited = auditInsert(db, audit);
  if (!presented) {
    await db.batch([insert, audited]);
    return { setCookie };
  }
  const revoke = db
    .update(sessions)
    .set({ revokedAt: Date.now() })
    .where(and(eq(sessions.idHash, await sha256Hex(presented)), eq(sessions.kind, opts.kind), tenantCondition, isNull(sessions.revokedAt)));
  await db.batch([revoke, insert, audited]);
  return { setCookie };
}

/**
 * A staff sign-in carried by another change that proves who the person is (the activation link):
 * the statements join the caller's D1 batch and each lands only while `when` holds, checked by the
 * database in the same statement. They revoke the session this browser presented (as every
 * sign-in does), create the new session row and record `auth.login.success`, so the change and the
 * sign-in commit together or not at all. The cookie is worth sending only when the batch changed.
 */
export async function staffSignInStatementsWhere(
  env: Env,
  request: Request,
  opts: { tenantId: string; userId: string; email: string; ip: string | null; method: string; now: number },
  when: SQL,
): Promise<{ statements: BatchItem<"sqlite">[]; setCookie: string }> {
  const db = dbFor(env, opts.tenantId);
  const token = newId(32);
  const idHash = await sha256Hex(token);
  const policy = SESSION_POLICY.staff;
  const statements: BatchItem<"sqlite">[] = [];
  const presented = await readSessionToken(env, request, "staff");
  if (presented) {
    statements.push(
      db
        .update(sessions)
        .set({ revokedAt: opts.now })
        .where(
          and(
            eq(sessions.idHash, await sha256Hex(presented)),
            eq(sessions.kind, "staff"),
            eq(sessions.tenantId, opts.tenantId),
            isNull(sessions.revokedAt),
            when,
          ),
        ),
    );
  }
  statements.push(
    insertWhere(
      db,
      sessions,
      {
        idHash,
        kind: "staff",
        tenantId: opts.tenantId,
        userId: opts.userId,
        createdAt: opts.now,
        lastSeenAt: opts.now,
        idleExpiresAt: opts.now + policy.idleMs,
        absoluteExpiresAt: opts.now + policy.absoluteMs,
        ip: opts.ip,
      },
      when,
    ),
    auditInsertWhere(
      db,
      { tenantId: opts.tenantId, action: "auth.login.success", actorId: opts.userId, actorEmail: opts.email, payload: { method: opts.method }, ip: opts.ip },
      when,
      { now: opts.now },
    ),
  );
  const setCookie = await cookieFor(env, "staff").serialize(token, { maxAge: Math.floor(policy.absoluteMs / 1000) });
  return { statements, setCookie };
}

/** Ends every live session of a user at once (disable, password change). */
export function revokeUserSessionsStatement(env: Env, tenantId: string, userId: string) {
  return dbFor(env, tenantId)
    .update(sessions)
    .set({ revokedAt: Date.now() })
    .where(and(eq(sessions.tenantId, tenantId), eq(sessions.userId, userId), isNull(sessions.revokedAt)));
}

export async function purgeExpiredSessions(env: Env, now = Date.now()): Promise<number> {
  return sumOverShards(env, async function purgeExpiredSessionsIn(db) {
    const res = await db
      .delete(sessions)
      .where(or(lt(sessions.absoluteExpiresAt, now), lt(sessions.idleExpiresAt, now), lt(sessions.revokedAt, now - 24 * HOUR)));
    return res.meta.changes ?? 0;
  });
}

/** D1 binds at most 100 parameters per statement; the ids share it with the other conditions. */
const IDS_PER_STATEMENT = 90;

/**
 * Statements ending every live session of this kind for these user ids (for portal sessions, the
 * subcontractors' ids), for the caller's batch: an archive, a delete or a new e-mail address and
 * the sign-out land together.
 */
export function revokeSessionsOfUsersStatements(
  db: Db,
  tenantId: string,
  kind: SessionKind,
  userIds: readonly string[],
  now = Date.now(),
): BatchItem<"sqlite">[] {
  const out: BatchItem<"sqlite">[] = [];
  for (let i = 0; i < userIds.length; i += IDS_PER_STATEMENT) {
    out.push(
      db
        .update(sessions)
        .set({ revokedAt: now })
        .where(
          and(
            eq(sessions.tenantId, tenantId),
            eq(sessions.kind, kind),
            inArray(sessions.userId, userIds.slice(i, i + IDS_PER_STATEMENT)),
            isNull(sessions.revokedAt),
          ),
        ),
    );
  }
  return out;
}

/** For the caller's batch: ends every live session on a tenant (a suspended workspace signs nobody in). */
export function revokeTenantSessionsStatement(db: Db, tenantId: string, now: number) {
  return db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(forTenant(sessions, tenantId), isNull(sessions.revokedAt)));
}

/** The live session of this kind that a token hash names on a tenant, for the caller's batch. */
export function liveTenantSessionStatement(db: Db, kind: SessionKind, tenantId: string, idHash: string, now = Date.now()) {
  return db
    .select()
    .from(sessions)
    .where(and(eq(sessions.idHash, idHash), eq(sessions.kind, kind), eq(sessions.tenantId, tenantId), liveSession(now)))
    .limit(1);
}

/** The user id of that session, as a subquery another feature's statement can filter its rows by. */
export function liveTenantSessionUserId(db: Db, kind: SessionKind, tenantId: string, idHash: string, now = Date.now()) {
  return db
    .select({ userId: sessions.userId })
    .from(sessions)
    .where(and(eq(sessions.idHash, idHash), eq(sessions.kind, kind), eq(sessions.tenantId, tenantId), liveSession(now)));
}
