import { data, type RouterContextProvider } from "react-router";
import { cloudflareContext } from "~/context";
import { moduleOn } from "~/features/auth/index.server";
import { requireTenant } from "~/features/auth/index.server";
import { createSession, revokeSession } from "~/features/auth/index.server";
import { burnToken, verifyToken, type VerifiedToken } from "~/features/auth/index.server";
import { findPortalInvite, isTokenUsed, linkWithdrawn, recordPortalSignIn } from "~/features/cis/index.server";
import { getSubcontractor, type SubcontractorRow } from "~/features/cis/index.server";
import { writeAudit } from "~/features/platform/index.server";
import { loadPortalSession } from "./portal-session.server";
import type { Result } from "~/utils/result";

/**
 * Every portal page and action starts here: the portal belongs to the CIS module, so it exists
 * only on a tenant host with CIS switched on (404 elsewhere, as for any missing page).
 */
export function requirePortalModule(context: Readonly<RouterContextProvider>) {
  const { env, ctx } = context.get(cloudflareContext);
  const tenant = requireTenant(context);
  if (!moduleOn(tenant, "cis")) throw data("Page not found", { status: 404 });
  return { env, ctx, tenant };
}

/** "withdrawn": the subcontractor was archived, or their e-mail changed after the link was sent. */
export type LinkProblem = "invalid" | "expired" | "used" | "withdrawn";

/** 410 Gone for a link that was good once; 400 for one that never was (tampered, another host). */
export function statusFor(problem: LinkProblem): 400 | 410 {
  return problem === "invalid" ? 400 : 410;
}

type Inspection = Result<{ value: VerifiedToken; subcontractor: SubcontractorRow }, LinkProblem>;

/**
 * Everything that can be checked without consuming the link: signature, expiry, this host as
 * audience, this tenant, a recorded invite for this subcontractor, the subcontractor still there,
 * active and at the address the link went to, and whether it was used. GET uses only this,
 * because mail scanners follow links.
 */
export async function inspectPortalLink(env: Env, request: Request, tenantId: string, token: string): Promise<Inspection> {
  const verified = await verifyToken(env, token, { kind: "portal-link", audience: new URL(request.url).origin });
  if (!verified.ok) return { ok: false, code: verified.code };
  const value = verified.value;
  if (value.claims.tid !== tenantId) return { ok: false, code: "invalid" };
  const [invite, subcontractor] = await Promise.all([
    findPortalInvite(env, tenantId, value.jti, value.subject),
    getSubcontractor(env, tenantId, value.subject),
  ]);
  if (!invite || !subcontractor) return { ok: false, code: "invalid" };
  if (invite.usedAt !== null || (await isTokenUsed(env, tenantId, value.jti))) return { ok: false, code: "used" };
  if (linkWithdrawn(invite, subcontractor)) return { ok: false, code: "withdrawn" };
  return { ok: true, value, subcontractor };
}

/**
 * The link's POST: burns the token id (single use across isolates), checks the subcontractor is
 * still there and active, opens a portal session and records the sign-in. A link a staff member
 * was shown opens a session that names them: read after the burn, since a link is shown only
 * while its token is unburned, so no showing can come after this read.
 */
export async function consumePortalLink(
  env: Env,
  ctx: ExecutionContext | null,
  request: Request,
  tenantId: string,
  token: string,
  ip: string | null,
): Promise<Result<{ setCookie: string }, LinkProblem>> {
  const refuse = async (problem: LinkProblem, reason: string) => {
    await writeAudit(env, { tenantId, action: "cis.portal.link_refused", targetType: "portal-link", payload: { reason }, ip });
    return { ok: false as const, code: problem };
  };
  const inspected = await inspectPortalLink(env, request, tenantId, token);
  if (!inspected.ok) return refuse(inspected.code, inspected.code);
  const { jti, subject, expiresAt } = inspected.value;
  if (!(await burnToken(env, { jti, kind: "portal-link", tenantId, expiresAt }))) return refuse("used", "reused");
  // Read again after the burn: an archive between the two checks still wins.
  const [subcontractor, invite] = await Promise.all([getSubcontractor(env, tenantId, subject), findPortalInvite(env, tenantId, jti, subject)]);
  if (!subcontractor || !invite) return refuse("invalid", "subcontractor");
  if (!subcontractor.active) return refuse("withdrawn", "archived");
  // A browser that already held a portal session swaps it for the new one.
  const previous = await loadPortalSession(env, ctx, request, tenantId);
  if (previous) await revokeSession(env, tenantId, previous.sessionIdHash);
  const linkRevealedBy = invite.revealedBy;
  const { setCookie } = await createSession(env, { kind: "portal", tenantId, userId: subcontractor.id, ip, portalLinkRevealedBy: linkRevealedBy });
  await recordPortalSignIn(env, { tenantId, inviteId: jti, subcontractorId: subcontractor.id, ip, linkRevealedBy });
  return { ok: true, setCookie };
}
