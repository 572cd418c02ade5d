import { PasswordLinkPage } from "../components/password-link-page";
import { activateAccount, checkActivationLink } from "../invitations.server";
import { passwordLinkState, setPasswordFromLink } from "../password-link.server";
import type { Route } from "./+types/activate";
/** The invitation link: shows whether it still works, without using it. */
export async function loader({ request, context }: Route.LoaderArgs) {
  return passwordLinkState(context, request, checkActivationLink);
}

export async function action({ request, context }: Route.ActionArgs) {
  return setPasswordFromLink(context, request, activateAccount, {
    type: "success",
    title: "Account activated",
    message: "Sign in with your e-mail address and new password.",
  });
}

export default function Activate({ loaderData, actionData }: Route.ComponentProps) {
  return <PasswordLinkPage title="Activate your account" submitLabel="Activate account" loaderData={loaderData} actionData={actionData} />;
}

export function meta() {
  return [{ title: "Activate your account" }];
}
