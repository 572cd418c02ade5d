import { requireTenant } from "~/features/auth/index.server";
import { PasswordLinkPage } from "../components/password-link-page";
import { activateAccount, checkActivationLink } from "../invitations.server";
import { passwordLinkState, setPasswordFromLink } from "../password-link.server";
import type { Route } from "./+types/activate";
/** The invitation link: shows whether it still works, without using it. */
export async function loader({ request, context }: Route.LoaderArgs) {
  return passwordLinkState(context, request, checkActivationLink);
}

export async function action({ request, context }: Route.ActionArgs) {
  const tenant = requireTenant(context);
  // Activating signs the person in (one batch with the activation): they land in the workspace,
  // on its home as after signing in (its first module, or the Welcome page).
  return setPasswordFromLink(
    context,
    request,
    (env, tenantId, input) => activateAccount(env, request, tenantId, input),
    { type: "success", title: "Account activated", message: "You are signed in. Next time, sign in with your e-mail address and new password." },
    tenant.modules[0]?.route ?? "/welcome",
  );
}

export default function Activate({ loaderData, actionData }: Route.ComponentProps) {
  return <PasswordLinkPage title="Activate your account" submitLabel="Activate account" loaderData={loaderData} actionData={actionData} />;
}

export function meta() {
  return [{ title: "Activate your account" }];
}
