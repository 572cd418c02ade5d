import { cloudflareContext } from "~/context";
import { requireTenant } from "~/features/auth/index.server";
import { PasswordLinkPage } from "../components/password-link-page";
import { resetPassword, checkResetLink } from "../password-reset.server";
import { passwordLinkState, setPasswordFromLink } from "../password-link.server";
import type { Route } from "./+types/reset-password";
/** The reset link: shows whether it still works, without using it. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { env } = context.get(cloudflareContext);
  const tenant = requireTenant(context);
  return passwordLinkState(request, (token) => checkResetLink(env, tenant.id, token));
}

export async function action({ request, context }: Route.ActionArgs) {
  const { env } = context.get(cloudflareContext);
  const tenant = requireTenant(context);
  return setPasswordFromLink(env, request, (input) => resetPassword(env, tenant.id, input), {
    type: "success",
    title: "Password changed",
    message: "Sign in with your new password. Every other session has ended.",
  });
}

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  return <PasswordLinkPage title="Set a new password" submitLabel="Set new password" loaderData={loaderData} actionData={actionData} />;
}

export function meta() {
  return [{ title: "Set a new password" }];
}
