import { cloudflareContext } from "~/context";
import { requireTenant } from "~/features/auth/index.server";
import { PasswordLinkPage } from "../components/password-link-page";
import { activateAccount, checkActivationLink } from "../invitations.server";
import { passwordLinkState, setPasswordFromLink } from "../password-link.server";
import type { Route } from "./+types/activate";
/** The invitation link: shows whether it still works, without using it. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { env } = context.get(cloudflareContext);
  const tenant = requireTenant(context);
  return passwordLinkState(request, (token) => checkActivationLink(env, tenant.id, token));
}

export async function action({ request, context }: Route.ActionArgs) {
  const { env } = context.get(cloudflareContext);
  const tenant = requireTenant(context);
  // Activating signs the person in (one batch with the activation): they land in the workspace.
  return setPasswordFromLink(
    env,
    request,
    (input) => activateAccount(env, request, tenant.id, input),
    { type: "success", title: "Account activated", message: "You are signed in. Next time, sign in with your e-mail address and new password." },
    // The workspace's home, as after signing in: its first module, or the Welcome page.
    tenant.modules[0]?.route ?? "/welcome",
  );
}

export default function Activate({ loaderData, actionData }: Route.ComponentProps) {
  return <PasswordLinkPage title="Activate your account" submitLabel="Activate account" loaderData={loaderData} actionData={actionData} />;
}

export function meta() {
  return [{ title: "Activate your account" }];
}
