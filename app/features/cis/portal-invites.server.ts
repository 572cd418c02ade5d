import { claimSubmission, type SubmissionClaim } from "~/features/platform/submission-keys.server";
import { and, eq, isNull } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { cisPortalInvites, usedTokens } from "~/db/schema";
import { signToken } from "~/features/auth/tokens.server";
import { auditInsert } from "~/features/platform/audit.server";
import { queueEmail } from "~/features/platform/email/send.server";
import type { TenantContextValue } from "~/features/platform/tenants.server";
import type { Actor } from "./module.server";
import { getCisSettings } from "./settings.server";
import type { SubcontractorRow } from "./subcontractors.server";

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

export type IssuedInvite = { magicLink: string; email: string; emailSent: boolean; inviteId: string; expiresAt: number };
/** Why no link was issued: the link goes by e-mail, and an archived subcontractor has no portal. */
export type InviteRefusal = "no_email" | "archived";
export type InviteResult = { ok: true; invite: IssuedInvite } | { ok: false; code: InviteRefusal };

/** Whether a subcontractor can be invited now, before anything is signed or recorded. */
export function inviteRefusal(subcontractor: Pick<SubcontractorRow, "email" | "active">): InviteRefusal | null {
  if (!subcontractor.active) return "archived";
  if (!subcontractor.email?.trim()) return "no_email";
  return null;
}

/**
 * Signs a single-use portal link bound to this tenant host and this subcontractor, records it
 * (with its audit entry, in one batch) before it goes anywhere, then e-mails it. A refused queue
 * does not lose the invite: the caller still shows the link and asks staff to share it.
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
  const magicLink = `${origin}/portal/auth?token=${encodeURIComponent(token)}`;
  const db = getDb(env);
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
      .where(and(eq(cisPortalInvites.tenantId, tenant.id), eq(cisPortalInvites.id, jti)));
  }
  return { ok: true, invite: { magicLink, email, emailSent, inviteId: jti, expiresAt } };
}

export type InviteRow = typeof cisPortalInvites.$inferSelect;

/** The recorded invite behind a token id, in this tenant and for this subcontractor. */
export async function findPortalInvite(env: Env, tenantId: string, inviteId: string, subcontractorId: string): Promise<InviteRow | null> {
  const [row] = await getDb(env)
    .select()
    .from(cisPortalInvites)
    .where(and(eq(cisPortalInvites.tenantId, tenantId), eq(cisPortalInvites.id, inviteId), eq(cisPortalInvites.subcontractorId, subcontractorId)))
    .limit(1);
  return row ?? null;
}

/** Read-only: has this token id been burned? Lets the link's GET say 'already used' without consuming anything. */
export async function isTokenUsed(env: Env, jti: string): Promise<boolean> {
  const [row] = await getDb(env).select({ jti: usedTokens.jti }).from(usedTokens).where(eq(usedTokens.jti, jti)).limit(1);
  return Boolean(row);
}

/** Marks the invite used (after its token was burned) and audits the sign-in, in one batch. */
export async function recordPortalSignIn(env: Env, opts: { tenantId: string; inviteId: string; subcontractorId: string; ip: string | null }) {
  const db = getDb(env);
  const now = Date.now();
  await db.batch([
    db
      .update(cisPortalInvites)
      .set({ usedAt: now })
      .where(and(eq(cisPortalInvites.tenantId, opts.tenantId), eq(cisPortalInvites.id, opts.inviteId), isNull(cisPortalInvites.usedAt))),
    auditInsert(
      db,
      {
        tenantId: opts.tenantId,
        action: "cis.portal.signed_in",
        actorId: opts.subcontractorId,
        targetType: "subcontractor",
        targetId: opts.subcontractorId,
        payload: { inviteId: opts.inviteId },
        ip: opts.ip,
      },
      now,
    ),
  ]);
}
