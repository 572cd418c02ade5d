import { and, eq, or, sql } from "drizzle-orm";
import { cisSettings } from "~/db/schema";
import { forTenant } from "~/db/tenancy";
import type { PersonalDataEraser } from "~/features/platform/index.server";

/** A workspace's statement e-mails are no longer sent from, or answered to, a departed person. */
export const cisEraser: PersonalDataEraser = (db, { tenantId, email, done }) => [
  db
    .update(cisSettings)
    .set({
      emailReplyTo: sql`CASE WHEN ${cisSettings.emailReplyTo} = ${email} THEN NULL ELSE ${cisSettings.emailReplyTo} END`,
      emailFrom: sql`CASE WHEN ${cisSettings.emailFrom} = ${email} THEN NULL ELSE ${cisSettings.emailFrom} END`,
    })
    .where(and(forTenant(cisSettings, tenantId), or(eq(cisSettings.emailReplyTo, email), eq(cisSettings.emailFrom, email)), done)),
];
