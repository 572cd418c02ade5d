import { eq, and } from "drizzle-orm";
import { data } from "react-router";
import { cloudflareContext, tenantContext, userContext } from "~/context";
import { getDb } from "~/db/client.server";
import { users } from "~/db/schema";
import { safeRedirectPath } from "~/features/auth/middleware.server";
import { redirectWithToast } from "../flash.server";
import { isThemePreference, themeSetCookie } from "../theme.server";
import type { Route } from "./+types/theme";

const LABELS = { system: "System", light: "Light", dark: "Dark" } as const;

/** Saves the theme to a cookie (so the server renders it with no flash) and to the signed-in user. */
export async function action({ request, context }: Route.ActionArgs) {
  const { env } = context.get(cloudflareContext);
  const form = await request.formData();
  const theme = form.get("theme");
  if (!isThemePreference(theme)) throw data("Unknown theme", { status: 400 });
  const user = context.get(userContext);
  const tenant = context.get(tenantContext);
  if (user?.kind === "staff" && tenant && user.tenantId === tenant.id) {
    await getDb(env)
      .update(users)
      .set({ themePreference: theme, updatedAt: Date.now() })
      .where(and(eq(users.tenantId, tenant.id), eq(users.id, user.id)));
  }
  return redirectWithToast(
    env,
    safeRedirectPath(String(form.get("redirectTo") ?? "/")),
    { type: "success", title: "Theme updated", message: `Theme set to ${LABELS[theme]}.` },
    { headers: { "Set-Cookie": await themeSetCookie(env, theme) } },
  );
}

export function loader() {
  throw data("Page not found", { status: 404 });
}
