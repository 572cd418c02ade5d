import { and, eq, gt, isNull, or, sql } from "drizzle-orm";
import { dbFor, type Db } from "~/db/client.server";
import { cisPortalInvites, usedTokens } from "~/db/schema";
import { forTenant } from "~/db/tenancy";
import { signToken, signTokenWith } from "~/features/auth/index.server";
import { claimSubmission, type SubmissionClaim } from "~/features/platform/index.server";
import { auditInsert, auditInsertWhere } from "~/features/platform/index.server";
import { queueEmail } from "~/features/platform/index.server";
import type { TenantContextValue } from "~/features/platform/index.server";
import type { Actor } from "~/features/auth";
import type { RevealRefusal } from "./portal-invite-codes";
import { getCisSettings } from "../settings/settings.server";
import { getSubcontractor, type SubcontractorRow } from "../subcontractors/subcontractors.server";
import type { Result } from "~/utils/result";

/** A portal magic link lasts 15 minutes and can be used once. */
export const PORTAL_LINK_TTL_SECONDS = 15 * 60;
export const PORTAL_LINK_EXPIRES_IN = "15 minutes";

/** The name subcontractors know the contractor by: the CIS company name, else the tenant's name. */
export async function contractorDetails(
  env: Env,
  tenant: Pick<TenantContextValue, "id" | "name">,
): Promise<{ contractorName: string; replyTo: string | null }> {
  const settings = await getCisSettings(env, tenant.id);
  return { contractorName: settings.companyName.trim() || tenant.name, replyTo: settings.emailReplyTo };
}

/**
 * An invite as its sender sees it. The link is there only when the e-mail could not be queued:
 * the sender then shares it by hand, and is recorded as having been shown it.
 */
export type IssuedInvite = { magicLink: string | null; email: string; emailSent: boolean; inviteId: string; expiresAt: number };
/** Why no link was issued: the link goes by e-mail, and an archived subcontractor has no portal. */
export type InviteRefusal = "no_email" | "archived";
export type InviteResult = Result<{ invite: IssuedInvite }, InviteRefusal>;

/** Whether a subcontractor can be invited now, before anything is signed or recorded. */
export function inviteRefusal(subcontractor: Pick<SubcontractorRow, "email" | "active">): InviteRefusal | null {
  if (!subcontractor.active) return "archived";
  if (!subcontractor.email?.trim()) return "no_email";
  return null;
}

/**
 * Signs a single-use portal link bound to this tenant host and this subcontractor, records it
 * (with its audit entry, in one batch) before it goes anywhere, then e-mails it. The link is
 * returned only when the queue refused the e-mail: the invite is not lost, the caller shows the
 * link to share by hand, and the sender is recorded as shown it (see recordReveal) first.
 */
/** Inviting an existing subcontractor sends a link: once per submission key (bound to the subcontractor). */
export function portalInviteScope(tenantId: string, userId: string, subcontractorId: string) {
  return { tenantId, userId, action: `cis.portal.invite:${subcontractorId}` };
}

export async function issuePortalInvite(
  env: Env,
  opts: {
    tenant: Pick<TenantContextValue, "id" | "name">;
    subcontractor: Pick<SubcontractorRow, "id" | "name" | "email" | "active">;
    actor: Actor;
    origin: string;
    ip: string | null;
    created: boolean;
    /** The form's one-time submission key: recorded with the invite, so a repeat sends nothing. */
    claim?: SubmissionClaim;
  },
): Promise<InviteResult> {
  const { tenant, subcontractor, actor, origin } = opts;
  const refusal = inviteRefusal(subcontractor);
  const email = subcontractor.email?.trim();
  if (refusal || !email) return { ok: false, code: refusal ?? "no_email" };
  const { token, jti, expiresAt } = await signToken(env, {
    kind: "portal-link",
    subject: subcontractor.id,
    audience: origin,
    ttlSeconds: PORTAL_LINK_TTL_SECONDS,
    claims: { tid: tenant.id },
  });
  const magicLink = portalLink(origin, token);
  const db = dbFor(env, tenant.id);
  const now = Date.now();
  await db.batch([
    db
      .insert(cisPortalInvites)
      .values({ id: jti, tenantId: tenant.id, subcontractorId: subcontractor.id, email, emailQueued: false, createdBy: actor.id, createdAt: now, expiresAt }),
    // The invite id, never the token or the link: the audit log must not hand out sign-ins.
    auditInsert(
      db,
      {
        tenantId: tenant.id,
        action: "cis.portal.invited",
        actorId: actor.id,
        actorEmail: actor.email,
        targetType: "subcontractor",
        targetId: subcontractor.id,
        payload: { inviteId: jti, expiresAt, createdSubcontractor: opts.created },
        ip: opts.ip,
      },
      now,
    ),
    ...(opts.claim ? [claimSubmission(db, opts.claim)] : []),
  ]);

  let emailSent = false;
  try {
    const { contractorName } = await contractorDetails(env, tenant);
    await queueEmail(env, {
      tenantId: tenant.id,
      to: email,
      template: "portal.invite",
      data: { recipientName: subcontractor.name, subcontractorName: subcontractor.name, contractorName, magicLink, expiresIn: PORTAL_LINK_EXPIRES_IN },
      idempotencyKey: `portal-invite:${jti}`,
    });
    emailSent = true;
  } catch (err) {
    console.error("Portal invite e-mail could not be queued", err instanceof Error ? err.message : err);
  }
  if (emailSent) {
    await db
      .update(cisPortalInvites)
      .set({ emailQueued: true })
      .where(and(forTenant(cisPortalInvites, tenant.id), eq(cisPortalInvites.id, jti)));
    return { ok: true, invite: { magicLink: null, email, emailSent, inviteId: jti, expiresAt } };
  }
  const shown = await recordReveal(db, { tenantId: tenant.id, inviteId: jti, subcontractorId: subcontractor.id, actor, ip: opts.ip, reason: "email_not_sent" });
  if (!shown) throw new Error("The unsent invite's link could not be recorded as shown");
  return { ok: true, invite: { magicLink, email, emailSent, inviteId: jti, expiresAt } };
}

// ---------------------------------------------------------------------------
// Showing a link to staff

/** Why the sender was shown the link: the e-mail did not go, or they asked (Show link). */
export type RevealReason = "email_not_sent" | "show_link";

/**
 * An invite whose link may still be shown to this person: not used (neither marked nor its token
 * burned), not expired, and shown to nobody else. A link is shown to one person only, so the
 * four-eyes rule on its invoices has one name to apply.
 */
function revealable(tenantId: string, inviteId: string, subcontractorId: string, actorId: string, now: number) {
  return and(
    forTenant(cisPortalInvites, tenantId),
    eq(cisPortalInvites.id, inviteId),
    eq(cisPortalInvites.subcontractorId, subcontractorId),
    isNull(cisPortalInvites.usedAt),
    gt(cisPortalInvites.expiresAt, now),
    or(isNull(cisPortalInvites.revealedBy), eq(cisPortalInvites.revealedBy, actorId)),
    sql`NOT EXISTS (SELECT 1 FROM ${usedTokens} WHERE ${usedTokens.jti} = ${cisPortalInvites.id})`,
  );
}

/**
 * Marks the invite as shown to `actor` and writes 'portal.link.revealed' naming them, in one
 * batch. The audit entry is an INSERT ... SELECT over the invite as the UPDATE left it, so it
 * lands only when the UPDATE did; false when the link can no longer be shown (used, expired,
 * or shown to someone else meanwhile).
 */
async function recordReveal(
  db: Db,
  opts: { tenantId: string; inviteId: string; subcontractorId: string; actor: Actor; ip: string | null; reason: RevealReason },
): Promise<boolean> {
  const { tenantId, inviteId, subcontractorId, actor } = opts;
  const now = Date.now();
  const [changed] = await db.batch([
    db
      .update(cisPortalInvites)
      .set({ revealedBy: actor.id, revealedAt: now })
      .where(revealable(tenantId, inviteId, subcontractorId, actor.id, now))
      .returning({ id: cisPortalInvites.id }),
    auditInsertWhere(
      db,
      {
        tenantId,
        action: "portal.link.revealed",
        actorId: actor.id,
        actorEmail: actor.email,
        targetType: "subcontractor",
        targetId: subcontractorId,
        payload: { inviteId, reason: opts.reason, shownTo: actor.id },
        ip: opts.ip,
      },
      sql`${forTenant(cisPortalInvites, tenantId)} AND ${cisPortalInvites.id} = ${inviteId}
        AND ${cisPortalInvites.revealedBy} = ${actor.id} AND ${cisPortalInvites.revealedAt} = ${now}`,
      { from: cisPortalInvites, now },
    ),
  ]);
  return changed.length === 1;
}

export type RevealResult = Result<{ magicLink: string; name: string; email: string; emailSent: boolean; expiresAt: number }, RevealRefusal>;

/**
 * 'Show link': the link of an invite that went by e-mail, to a staff member who may see it (the
 * route checks cis.portal.invite and cis.inv.write). The token is not stored anywhere: it is
 * signed again from the invite's id, subcontractor, host and expiry, which gives the very link
 * that was e-mailed. Recorded (with its audit entry) before it is returned.
 */
export async function revealPortalLink(
  env: Env,
  opts: { tenantId: string; subcontractorId: string; inviteId: string; actor: Actor; origin: string; ip: string | null },
): Promise<RevealResult> {
  const { tenantId, subcontractorId, inviteId, actor } = opts;
  const [invite, subcontractor] = await Promise.all([
    findPortalInvite(env, tenantId, inviteId, subcontractorId),
    getSubcontractor(env, tenantId, subcontractorId),
  ]);
  if (!invite || !subcontractor) return { ok: false, code: "not_found" };
  if (invite.usedAt !== null || (await isTokenUsed(env, tenantId, invite.id))) return { ok: false, code: "used" };
  if (invite.expiresAt <= Date.now()) return { ok: false, code: "expired" };
  if (linkWithdrawn(invite, subcontractor)) return { ok: false, code: "withdrawn" };
  if (invite.revealedBy !== null && invite.revealedBy !== actor.id) return { ok: false, code: "shown_to_other" };
  if (!(await recordReveal(dbFor(env, tenantId), { tenantId, inviteId, subcontractorId, actor, ip: opts.ip, reason: "show_link" }))) {
    // Used, expired or shown to someone else between the read and the write: say which.
    const again = await findPortalInvite(env, tenantId, inviteId, subcontractorId);
    if (again?.revealedBy && again.revealedBy !== actor.id) return { ok: false, code: "shown_to_other" };
    return { ok: false, code: again && again.expiresAt <= Date.now() ? "expired" : "used" };
  }
  const exp = Math.floor(invite.expiresAt / 1000);
  const token = await signTokenWith(env, {
    kind: "portal-link",
    subject: subcontractorId,
    audience: opts.origin,
    jti: invite.id,
    issuedAt: exp - PORTAL_LINK_TTL_SECONDS,
    expiresAt: exp,
    claims: { tid: tenantId },
  });
  return {
    ok: true,
    magicLink: portalLink(opts.origin, token),
    name: subcontractor.name,
    email: invite.email,
    emailSent: invite.emailQueued,
    expiresAt: invite.expiresAt,
  };
}

export function portalLink(origin: string, token: string): string {
  return `${origin}/portal/auth?token=${encodeURIComponent(token)}`;
}

/** A link still signs in only while it went to the subcontractor's current address and they are active. */
export function linkWithdrawn(
  invite: Pick<InviteRow, "createdAt" | "email">,
  sub: Pick<SubcontractorRow, "active" | "portalLinksValidAfter" | "email">,
): boolean {
  if (!sub.active) return true;
  if (sub.portalLinksValidAfter !== null && invite.createdAt < sub.portalLinksValidAfter) return true;
  return invite.email.trim().toLowerCase() !== (sub.email ?? "").trim().toLowerCase();
}

export type InviteRow = typeof cisPortalInvites.$inferSelect;

/** The recorded invite behind a token id, in this tenant and for this subcontractor. */
export async function findPortalInvite(env: Env, tenantId: string, inviteId: string, subcontractorId: string): Promise<InviteRow | null> {
  const [row] = await dbFor(env, tenantId)
    .select()
    .from(cisPortalInvites)
    .where(and(forTenant(cisPortalInvites, tenantId), eq(cisPortalInvites.id, inviteId), eq(cisPortalInvites.subcontractorId, subcontractorId)))
    .limit(1);
  return row ?? null;
}

/**
 * Read-only: has this tenant's token id been burned? Lets the link's GET say 'already used'
 * without consuming anything. Burns land in the token's tenant's database, so that is where to look.
 */
export async function isTokenUsed(env: Env, tenantId: string, jti: string): Promise<boolean> {
  const [row] = await dbFor(env, tenantId)
    .select({ jti: usedTokens.jti })
    .from(usedTokens)
    .where(and(eq(usedTokens.tenantId, tenantId), eq(usedTokens.jti, jti)))
    .limit(1);
  return Boolean(row);
}

/** Marks the invite used (after its token was burned) and audits the sign-in, in one batch. */
export async function recordPortalSignIn(
  env: Env,
  opts: { tenantId: string; inviteId: string; subcontractorId: string; ip: string | null; linkRevealedBy: string | null },
) {
  const db = dbFor(env, opts.tenantId);
  const now = Date.now();
  await db.batch([
    db
      .update(cisPortalInvites)
      .set({ usedAt: now })
      .where(and(forTenant(cisPortalInvites, opts.tenantId), eq(cisPortalInvites.id, opts.inviteId), isNull(cisPortalInvites.usedAt))),
    auditInsert(
      db,
      {
        tenantId: opts.tenantId,
        action: "cis.portal.signed_in",
        actorId: opts.subcontractorId,
        targetType: "subcontractor",
        targetId: opts.subcontractorId,
        payload: { inviteId: opts.inviteId, ...(opts.linkRevealedBy ? { linkRevealedBy: opts.linkRevealedBy } : {}) },
        ip: opts.ip,
      },
      now,
    ),
  ]);
}
