import { and, eq } from "drizzle-orm";
import { data, redirect } from "react-router";
import { cloudflareContext } from "~/context";
import { getDb } from "~/db/client.server";
import { USER_STATUSES, users, type UserStatus } from "~/db/schema";
import { requireTenant, requireUser, safeRedirectPath } from "../middleware.server";
import type { Route } from "./+types/me-status";

/** Availability status: saved at once; the shell shows it on the next render. */
export async function action({ request, context }: Route.ActionArgs) {
  const { env } = context.get(cloudflareContext);
  const tenant = requireTenant(context);
  const user = requireUser(request, context);
  const form = await request.formData();
  const status = String(form.get("status") ?? "");
  if (!(USER_STATUSES as readonly string[]).includes(status)) throw data("Unknown status", { status: 400 });
  const now = Date.now();
  await getDb(env)
    .update(users)
    .set({ userStatus: status as UserStatus, userStatusUpdatedAt: now, updatedAt: now })
    .where(and(eq(users.tenantId, tenant.id), eq(users.id, user.id)));
  return redirect(safeRedirectPath(String(form.get("redirectTo") ?? "/")));
}

export function loader() {
  throw data("Page not found", { status: 404 });
}
