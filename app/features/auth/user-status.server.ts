import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { dbFor } from "~/db/client.server";
import { USER_STATUSES, users, type UserStatus } from "~/db/schema";

export const userStatusFormSchema = z.object({
  status: z.enum(USER_STATUSES),
  redirectTo: z.string().max(2000).optional(),
});

/** Availability status of one staff member in one tenant; the shell shows it on the next render. */
export async function setUserStatus(env: Env, tenantId: string, userId: string, status: UserStatus): Promise<void> {
  const now = Date.now();
  await dbFor(env, tenantId)
    .update(users)
    .set({ userStatus: status, userStatusUpdatedAt: now, updatedAt: now })
    .where(and(eq(users.tenantId, tenantId), eq(users.id, userId)));
}
