import { createSession, revokeSession } from "~/features/auth/session.server";
import { burnToken, verifyToken, type VerifiedToken } from "~/features/auth/tokens.server";
import { findPortalInvite, isTokenUsed, recordPortalSignIn } from "~/features/cis/portal-invites.server";
import { getSubcontractor } from "~/features/cis/subcontractors.server";
import { writeAudit } from "~/features/platform/audit.server";
import { loadPortalSession } from "./portal-session.server";

export type LinkProblem = "invalid" | "expired" | "used";

/** 410 Gone for a link that was good once; 400 for one that never was (tampered, another host). */
export function statusFor(problem: LinkProblem): 400 | 410 {
  return problem === "invalid" ? 400 : 410;
}

type Inspection = { ok: true; value: VerifiedToken } | { ok: false; problem: LinkProblem };

/**
 * Everything that can be checked without consuming the link: signature, expiry, this host as
 * audience, this tenant, a recorded invite for this subcontractor, and whether it was used.
 * GET uses only this, because mail scanners follow links.
 */
export async function inspectPortalLink(env: Env, request: Request, tenantId: string, token: string): Promise<Inspection> {
  const verified = await verifyToken(env, token, { kind: "portal-link", audience: new URL(request.url).origin });
  if (!verified.ok) return { ok: false, problem: verified.reason };
  const value = verified.value;
  if (value.claims.tid !== tenantId) return { ok: false, problem: "invalid" };
  const invite = await findPortalInvite(env, tenantId, value.jti, value.subject);
  if (!invite) return { ok: false, problem: "invalid" };
  if (invite.usedAt !== null || (await isTokenUsed(env, value.jti))) return { ok: false, problem: "used" };
  return { ok: true, value };
}

/**
 * The link's POST: burns the token id (single use across isolates), checks the subcontractor is
 * still there, opens a portal session and records the sign-in.
 */
export async function consumePortalLink(
  env: Env,
  ctx: ExecutionContext | null,
  request: Request,
  tenantId: string,
  token: string,
  ip: string | null,
): Promise<{ ok: true; setCookie: string } | { ok: false; problem: LinkProblem }> {
  const refuse = async (problem: LinkProblem, reason: string) => {
    await writeAudit(env, { tenantId, action: "cis.portal.link_refused", targetType: "portal-link", payload: { reason }, ip });
    return { ok: false as const, problem };
  };
  const inspected = await inspectPortalLink(env, request, tenantId, token);
  if (!inspected.ok) return refuse(inspected.problem, inspected.problem);
  const { jti, subject, expiresAt } = inspected.value;
  if (!(await burnToken(env, { jti, kind: "portal-link", tenantId, expiresAt }))) return refuse("used", "reused");
  const subcontractor = await getSubcontractor(env, tenantId, subject);
  if (!subcontractor) return refuse("invalid", "subcontractor");
  // A browser that already held a portal session swaps it for the new one.
  const previous = await loadPortalSession(env, ctx, request, tenantId);
  if (previous) await revokeSession(env, previous.sessionIdHash);
  const { setCookie } = await createSession(env, { kind: "portal", tenantId, userId: subcontractor.id, ip });
  await recordPortalSignIn(env, { tenantId, inviteId: jti, subcontractorId: subcontractor.id, ip });
  return { ok: true, setCookie };
}
