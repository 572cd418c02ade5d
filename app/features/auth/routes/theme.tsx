import { data } from "react-router";
import { cloudflareContext, tenantContext, userContext } from "~/context";
import { redirectWithToast, themeFormSchema, themeSetCookie } from "~/features/platform/index.server";
import { safeRedirectPath } from "../middleware.server";
import { saveUserTheme } from "../users.server";
import type { Route } from "./+types/theme";

const LABELS = { system: "System", light: "Light", dark: "Dark" } as const;

/**
 * Saves the theme to a cookie (so the server renders it with no flash) and to the signed-in user.
 * The cookie is the platform's; the preference on the account is a column of auth's users table.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const { env } = context.get(cloudflareContext);
  const parsed = themeFormSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) throw data("Unknown theme", { status: 400 });
  const { theme, redirectTo } = parsed.data;
  const user = context.get(userContext);
  const tenant = context.get(tenantContext);
  if (user?.kind === "staff" && tenant && user.tenantId === tenant.id) await saveUserTheme(env, tenant.id, user.id, theme);
  return redirectWithToast(
    env,
    safeRedirectPath(redirectTo ?? "/"),
    { type: "success", title: "Theme updated", message: `Theme set to ${LABELS[theme]}.` },
    { headers: { "Set-Cookie": await themeSetCookie(env, request, theme) } },
  );
}

export function loader() {
  throw data("Page not found", { status: 404 });
}
