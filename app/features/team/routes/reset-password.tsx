import { PasswordLinkPage } from "../components/password-link-page";
import { resetPassword, checkResetLink } from "../password-reset.server";
import { passwordLinkState, setPasswordFromLink } from "../password-link.server";
import type { Route } from "./+types/reset-password";
/** The reset link: shows whether it still works, without using it. */
export async function loader({ request, context }: Route.LoaderArgs) {
  return passwordLinkState(context, request, checkResetLink);
}

export async function action({ request, context }: Route.ActionArgs) {
  return setPasswordFromLink(context, request, resetPassword, {
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
