import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import { cloudflareContext } from "~/context";
import { requireTenant } from "~/features/auth/index.server";
import { WEAK_PASSWORD_MESSAGE } from "~/features/auth/index.server";
import { throttleMessage } from "~/features/auth/index.server";
import { clientIp } from "~/features/platform/index.server";
import { AppShell } from "~/features/platform";
import { redirectWithToast } from "~/features/platform/index.server";
import { LINK_ERRORS } from "../codes";
import { SetPasswordForm } from "../components/set-password-form";
import { resetPassword, checkResetLink } from "../password-reset.server";
import { setPasswordSchema } from "../schemas";
import type { Route } from "./+types/reset-password";

/** The reset link: shows whether it still works, without using it. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { env } = context.get(cloudflareContext);
  const tenant = requireTenant(context);
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const link = await checkResetLink(env, tenant.id, token);
  return link.ok ? { token, email: link.email, problem: null } : { token: "", email: "", problem: LINK_ERRORS[link.code] };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { env } = context.get(cloudflareContext);
  const tenant = requireTenant(context);
  const submission = parseWithZod(await request.formData(), { schema: setPasswordSchema });
  if (submission.status !== "success") return data({ result: submission.reply({ hideFields: ["password", "confirm"] }), problem: null }, { status: 400 });
  const res = await resetPassword(env, tenant.id, { token: submission.value.token, password: submission.value.password, ip: clientIp(request) });
  if (!res.ok) {
    const code = res.code;
    // The typed password stays in the field so it can be changed rather than retyped.
    if (code === "weak_password")
      return data({ result: submission.reply({ fieldErrors: { password: [WEAK_PASSWORD_MESSAGE] } }), problem: null }, { status: 400 });
    const problem = code === "throttled" ? throttleMessage(res.waitMs ?? 0) : LINK_ERRORS[code];
    return data({ result: submission.reply({ hideFields: ["password", "confirm"] }), problem }, { status: res.code === "throttled" ? 429 : 400 });
  }
  return redirectWithToast(env, "/login", {
    type: "success",
    title: "Password changed",
    message: "Sign in with your new password. Every other session has ended.",
  });
}

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const problem = actionData?.problem ?? loaderData.problem;
  return (
    <AppShell>
      <div className="mx-auto max-w-md px-6 py-12">
        <h1 className="text-2xl font-bold">Set a new password</h1>
        {problem ? (
          <p role="alert" className="mt-6 rounded-brand border border-danger p-4 text-sm" data-testid="link-problem">
            {problem}
          </p>
        ) : (
          <>
            <p className="mt-2 text-sm opacity-70">Choose a password for {loaderData.email}.</p>
            <SetPasswordForm token={loaderData.token} email={loaderData.email} lastResult={actionData?.result} submitLabel="Set new password" />
          </>
        )}
      </div>
    </AppShell>
  );
}

export function meta() {
  return [{ title: "Set a new password" }];
}
