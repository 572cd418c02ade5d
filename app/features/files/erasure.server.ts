import { and, eq, sql } from "drizzle-orm";
import { files, signatureRequests } from "~/db/schema";
import { forTenant } from "~/db/tenancy";
import { FORMER_USER } from "~/features/platform";
import type { PersonalDataEraser } from "~/features/platform/index.server";

/** Files keep a copy of their owner's name and address; a typed or drawn signature recorded the signer's name as shown. */
export const filesEraser: PersonalDataEraser = (db, { tenantId, userId, placeholder, done }) => [
  // Files they own keep their owner id; the copied name and address go.
  db
    .update(files)
    .set({ ownerEmail: placeholder, ownerName: FORMER_USER })
    .where(and(forTenant(files, tenantId), eq(files.ownerId, userId), done)),
  db
    .update(signatureRequests)
    .set({ signatureText: FORMER_USER })
    .where(and(forTenant(signatureRequests, tenantId), eq(signatureRequests.signerId, userId), sql`${signatureRequests.signatureText} IS NOT NULL`, done)),
];
