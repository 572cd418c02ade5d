import { and, eq, gt, inArray, isNull } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { redirect } from "react-router";
import { getDb } from "~/db/client.server";
import { cisSubcontractors, sessions } from "~/db/schema";
import { readSessionToken, SESSION_POLICY } from "~/features/auth/session.server";
import type { SubcontractorRow } from "~/features/cis/subcontractors/subcontractors.server";
import { sha256Hex } from "~/utils/ids";

const TOUCH_INTERVAL_MS = 5 * 60_000;
/** D1 binds at most 100 parameters per statement; the ids share it with the other conditions. */
const IDS_PER_STATEMENT = 90;

/**
 * Statements ending every live portal session of these subcontractors, for the caller's batch
 * (so an archive, a delete or a new e-mail address and the sign-out land together).
 */
export function revokePortalSessionsStatements(
  db: ReturnType<typeof getDb>,
  tenantId: string,
  subcontractorIds: readonly string[],
  now = Date.now(),
): BatchItem<"sqlite">[] {
  const out: BatchItem<"sqlite">[] = [];
  for (let i = 0; i < subcontractorIds.length; i += IDS_PER_STATEMENT) {
    out.push(
      db
        .update(sessions)
        .set({ revokedAt: now })
        .where(
          and(
            eq(sessions.tenantId, tenantId),
            eq(sessions.kind, "portal"),
            inArray(sessions.userId, subcontractorIds.slice(i, i + IDS_PER_STATEMENT)),
            isNull(sessions.revokedAt),
          ),
        ),
    );
  }
  return out;
}

/**
 * linkRevealedBy: the staff member who was shown the link that opened this session (null when
 * the link only went by e-mail). Whatever is submitted in the session carries it.
 */
export type PortalSession = { sessionIdHash: string; tenantId: string; subcontractor: SubcontractorRow; linkRevealedBy: string | null };

/**
 * The subcontractor behind a live portal session on this tenant host. Only the `portal` cookie
 * counts (a staff cookie never opens the portal), and the subcontractor always comes from the
 * session row, never from the URL: a deleted or archived subcontractor ends the session's reach
 * at once, even if its session row was somehow left live.
 */
export async function loadPortalSession(env: Env, ctx: ExecutionContext | null, request: Request, tenantId: string): Promise<PortalSession | null> {
  const token = await readSessionToken(env, request, "portal");
  if (!token) return null;
  const idHash = await sha256Hex(token);
  const now = Date.now();
  const [row] = await getDb(env)
    .select({ s: sessions, sub: cisSubcontractors })
    .from(sessions)
    .innerJoin(
      cisSubcontractors,
      and(
        eq(cisSubcontractors.id, sessions.userId),
        eq(cisSubcontractors.tenantId, tenantId),
        isNull(cisSubcontractors.deletedAt),
        eq(cisSubcontractors.active, true),
      ),
    )
    .where(
      and(
        eq(sessions.idHash, idHash),
        eq(sessions.kind, "portal"),
        eq(sessions.tenantId, tenantId),
        isNull(sessions.revokedAt),
        gt(sessions.idleExpiresAt, now),
        gt(sessions.absoluteExpiresAt, now),
      ),
    )
    .limit(1);
  if (!row) return null;
  if (now - row.s.lastSeenAt >= TOUCH_INTERVAL_MS) {
    const idle = Math.min(now + SESSION_POLICY.portal.idleMs, row.s.absoluteExpiresAt);
    const p = getDb(env).update(sessions).set({ lastSeenAt: now, idleExpiresAt: idle }).where(eq(sessions.idHash, idHash));
    if (ctx) ctx.waitUntil(p.then(() => undefined));
    else await p;
  }
  return { sessionIdHash: idHash, tenantId, subcontractor: row.sub, linkRevealedBy: row.s.portalLinkRevealedBy };
}

/** The portal session or a redirect to /portal/login. */
export async function requirePortalSession(env: Env, ctx: ExecutionContext | null, request: Request, tenantId: string): Promise<PortalSession> {
  const session = await loadPortalSession(env, ctx, request, tenantId);
  if (!session) throw redirect("/portal/login");
  return session;
}
