import { redirect } from "react-router";
import { dbFor } from "~/db/client.server";
import { liveTenantSessionStatement, liveTenantSessionUserId, readSessionToken, touchSession } from "~/features/auth/index.server";
import { activeSubcontractorStatement, type SubcontractorRow } from "~/features/cis/index.server";
import { sha256Hex } from "~/utils/ids";

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
  // One round trip: the session (auth's) and the active subcontractor it belongs to (CIS's).
  const db = dbFor(env, tenantId);
  const [[session], [sub]] = await db.batch([
    liveTenantSessionStatement(db, "portal", tenantId, idHash, now),
    activeSubcontractorStatement(db, tenantId, liveTenantSessionUserId(db, "portal", tenantId, idHash, now)),
  ]);
  if (!session || !sub) return null;
  await touchSession(env, ctx, tenantId, session);
  return { sessionIdHash: idHash, tenantId, subcontractor: sub, linkRevealedBy: session.portalLinkRevealedBy };
}

/** The portal session or a redirect to /portal/login. */
export async function requirePortalSession(env: Env, ctx: ExecutionContext | null, request: Request, tenantId: string): Promise<PortalSession> {
  const session = await loadPortalSession(env, ctx, request, tenantId);
  if (!session) throw redirect("/portal/login");
  return session;
}
