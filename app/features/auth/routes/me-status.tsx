import { data, redirect } from "react-router";
import { cloudflareContext } from "~/context";
import { requireTenant, requireUser, safeRedirectPath } from "../middleware.server";
import { setUserStatus, userStatusFormSchema } from "../user-status.server";
import type { Route } from "./+types/me-status";

/** Availability status: saved at once; the shell shows it on the next render. */
export async function action({ request, context }: Route.ActionArgs) {
  const { env } = context.get(cloudflareContext);
  const tenant = requireTenant(context);
  const user = requireUser(request, context);
  const parsed = userStatusFormSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) throw data("Unknown status", { status: 400 });
  await setUserStatus(env, tenant.id, user.id, parsed.data.status);
  return redirect(safeRedirectPath(parsed.data.redirectTo ?? "/"));
}

export function loader() {
  throw data("Page not found", { status: 404 });
}
