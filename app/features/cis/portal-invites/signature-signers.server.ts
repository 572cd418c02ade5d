import { and, asc, eq, isNull, ne, sql } from "drizzle-orm";
import type { SessionUser } from "~/context";
import type { Db } from "~/db/client.server";
import { cisPortalInvites, cisSubcontractors } from "~/db/schema";
import { can } from "~/features/auth";
import { moduleOn, signToken } from "~/features/auth/index.server";
import type { SubcontractorSigners } from "~/features/files/index.server";
import { auditInsert } from "~/features/platform/index.server";
import type { TenantContextValue } from "~/features/platform/index.server";
import { contractorDetails, PORTAL_LINK_EXPIRES_IN, PORTAL_LINK_TTL_SECONDS, portalLink } from "./portal-invites.server";

/** Subcontractors who can be asked to sign: live, active and with an e-mail address for the portal link. */
function signable(tenantId: string) {
  return and(
    eq(cisSubcontractors.tenantId, tenantId),
    isNull(cisSubcontractors.deletedAt),
    eq(cisSubcontractors.active, true),
    ne(sql`trim(coalesce(${cisSubcontractors.email}, ''))`, ""),
  );
}

const choiceColumns = { id: cisSubcontractors.id, name: cisSubcontractors.name, email: sql<string>`trim(${cisSubcontractors.email})` };

/**
 * What files needs to send a signature request to a subcontractor: the choices (only when CIS is
 * on and the person may see subcontractors), and a portal link recorded as an invite in the
 * request's own batch, exactly like an e-mailed portal invitation (never shown to staff).
 */
export const cisSubcontractorSigners: SubcontractorSigners = {
  maySee(tenant: Pick<TenantContextValue, "modules">, user: SessionUser) {
    return moduleOn(tenant, "cis") && can(user, "cis.sub.read");
  },
  choices(db: Db, tenantId: string) {
    return db.select(choiceColumns).from(cisSubcontractors).where(signable(tenantId)).orderBy(asc(cisSubcontractors.nameLower)).limit(500);
  },
  find(db: Db, tenantId: string, subcontractorId: string) {
    return db
      .select(choiceColumns)
      .from(cisSubcontractors)
      .where(and(signable(tenantId), eq(cisSubcontractors.id, subcontractorId)))
      .limit(1);
  },
  async issueLink(env, opts) {
    const { tenant, subcontractorId, email, origin } = opts;
    const { token, jti, expiresAt } = await signToken(env, {
      kind: "portal-link",
      subject: subcontractorId,
      audience: origin,
      ttlSeconds: PORTAL_LINK_TTL_SECONDS,
      claims: { tid: tenant.id },
    });
    const { contractorName } = await contractorDetails(env, tenant);
    const now = Date.now();
    return {
      magicLink: `${portalLink(origin, token)}&next=${encodeURIComponent(opts.next)}`,
      expiresIn: PORTAL_LINK_EXPIRES_IN,
      contractorName,
      statements: (b: Db) => [
        b.insert(cisPortalInvites).values({
          id: jti,
          tenantId: tenant.id,
          subcontractorId,
          email,
          emailQueued: true,
          createdBy: opts.actorId,
          createdAt: now,
          expiresAt,
        }),
        // The invite id, never the token or the link: the audit log must not hand out sign-ins.
        auditInsert(
          b,
          {
            tenantId: tenant.id,
            action: "cis.portal.invited",
            actorId: opts.actorId,
            actorEmail: opts.actorEmail,
            targetType: "subcontractor",
            targetId: subcontractorId,
            payload: { inviteId: jti, expiresAt, createdSubcontractor: false, for: "signature" },
            ip: null,
          },
          now,
        ),
      ],
    };
  },
};
