import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "~/db/client.server";
import type { SessionUser } from "~/context";
import type { TenantContextValue } from "~/features/platform/index.server";

/** A subcontractor who may be asked to sign, as the Request Signature form lists them. */
export type SubcontractorSignerChoice = { id: string; name: string; email: string };

/** The portal link a subcontractor signer is e-mailed, and the statements that record it in the request's batch. */
export type SubcontractorSignLink = {
  magicLink: string;
  expiresIn: string;
  contractorName: string;
  statements: (b: Db) => BatchItem<"sqlite">[];
};

/**
 * What files needs to ask a tenant's subcontractors to sign. Files sits below the feature that
 * owns subcontractors and portal links, so that feature registers this at start-up (nothing is
 * imported upwards); without a registration only team members can be asked.
 */
export type SubcontractorSigners = {
  /** Whether this person, on this tenant, may pick subcontractors (the module is on, they may see subcontractors). */
  maySee(tenant: Pick<TenantContextValue, "modules">, user: SessionUser): boolean;
  /** The active subcontractors with an e-mail address, by name: one statement for the caller's batch (rows are SubcontractorSignerChoice). */
  choices(db: Db, tenantId: string): BatchItem<"sqlite">;
  /** One active subcontractor with an e-mail address of this tenant (rows are SubcontractorSignerChoice, none when not found). */
  find(db: Db, tenantId: string, subcontractorId: string): BatchItem<"sqlite">;
  /**
   * Signs a single-use portal link for the subcontractor that opens `next` after sign-in, and
   * gives the statements that record it (the invite row and its audit entry) for the caller's batch.
   */
  issueLink(
    env: Env,
    opts: {
      tenant: Pick<TenantContextValue, "id" | "name">;
      subcontractorId: string;
      email: string;
      actorId: string;
      actorEmail: string;
      origin: string;
      next: string;
    },
  ): Promise<SubcontractorSignLink>;
};

let registered: SubcontractorSigners | null = null;

export function registerSubcontractorSigners(signers: SubcontractorSigners): void {
  registered = signers;
}

/** The registration, when this person may pick subcontractors on this tenant; else null. */
export function subcontractorSignersFor(tenant: Pick<TenantContextValue, "modules">, user: SessionUser): SubcontractorSigners | null {
  return registered && registered.maySee(tenant, user) ? registered : null;
}

/** Where the portal shows a subcontractor the request `requestId` to sign. */
export function portalSignPath(requestId: string): string {
  return `/portal/signatures/${requestId}`;
}
