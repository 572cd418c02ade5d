import { getFormProps, getInputProps, type SubmissionResult, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, redirect } from "react-router";
import { SubmitButton } from "~/components/ui/button";
import { Field, Honeypot, inputClass } from "~/components/ui/field";
import { cloudflareContext, tenantContext, userContext } from "~/context";
import { AppShell } from "~/features/platform";
import { chooseWorkspace, passwordSignIn, type PasswordSignInResult } from "../login-flow.server";
import { safeRedirectPath } from "../middleware.server";
import { CHOICE_EXPIRED, CHOICE_INVALID, LOGIN_FAILED, loginActionSchema, SEND_CODE_FAILED } from "../schemas";
import { codeFailuresMessage, codesSentMessage, throttleMessage } from "../throttle.server";
import type { Route } from "./+types/login";

export function loader({ request, context }: Route.LoaderArgs) {
  const tenant = context.get(tenantContext);
  const user = context.get(userContext);
  const redirectTo = safeRedirectPath(new URL(request.url).searchParams.get("redirectTo"), "");
  if (user) throw redirect(tenant ? redirectTo || "/" : "/superadmin");
  return { tenantName: tenant?.name ?? null, redirectTo, requireTwoFactor: Boolean(tenant?.requireTwoFactor) };
}

type ActionResult = { kind: "form"; result: SubmissionResult<string[]> } | { kind: "choose"; tenants: { slug: string; name: string }[]; email: string };

function failure(result: Exclude<PasswordSignInResult, { ok: true }>): { message: string; status: number } {
  switch (result.code) {
    case "bad_credentials":
      return { message: LOGIN_FAILED, status: 400 };
    case "send_failed":
      return { message: SEND_CODE_FAILED, status: 400 };
    case "choice_expired":
      return { message: CHOICE_EXPIRED, status: 400 };
    case "choice_invalid":
      return { message: CHOICE_INVALID, status: 400 };
    case "throttled":
      return { message: throttleMessage(result.waitMs), status: 429 };
    case "codes_exhausted":
      return { message: codesSentMessage(result.waitMs), status: 429 };
    case "code_step_locked":
      return { message: codeFailuresMessage(result.waitMs), status: 429 };
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  const { env } = context.get(cloudflareContext);
  const tenant = context.get(tenantContext);
  const formData = await request.formData();
  // A password form posted without the field (scripts, older pages) is a sign-in.
  if (!formData.has("intent")) formData.set("intent", "sign-in");
  const submission = parseWithZod(formData, { schema: loginActionSchema });
  if (submission.status !== "success") {
    return data<ActionResult>({ kind: "form", result: submission.reply({ hideFields: ["password"] }) }, { status: 400 });
  }
  const input = submission.value;
  // Only the bare domain offers a choice of workspace.
  const result: PasswordSignInResult =
    input.intent === "choose"
      ? tenant
        ? { ok: false, code: "choice_invalid" }
        : await chooseWorkspace(env, request, input.tenant)
      : await passwordSignIn(env, request, tenant, {
          email: input.email,
          password: input.password,
          twoFactor: Boolean(input.twoFactor),
          redirectTo: safeRedirectPath(input.redirectTo, "") || null,
          honeypot: Boolean(input.website),
        });
  if (result.ok && result.kind === "redirect") return redirect(result.location, { headers: result.headers });
  if (result.ok) return data<ActionResult>({ kind: "choose", email: result.email, tenants: result.tenants }, { headers: result.headers });
  const { message, status } = failure(result);
  return data<ActionResult>({ kind: "form", result: submission.reply({ formErrors: [message], hideFields: ["password"] }) }, { status });
}

// eslint-disable-next-line max-lines-per-function -- one form: every field reads the same form state, so a split would only pass it through props
export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  const result = actionData && "kind" in actionData && actionData.kind === "form" ? actionData.result : undefined;
  const [form, fields] = useForm({
    lastResult: result,
  });

  if (actionData && "kind" in actionData && actionData.kind === "choose") {
    return (
      <AppShell>
        <div className="mx-auto max-w-md px-6 py-16">
          <h1 className="text-2xl font-bold">Choose a workspace</h1>
          <p className="mt-2 text-sm opacity-80">{actionData.email} has accounts in several workspaces. Which one do you want to open?</p>
          <Form method="post" className="mt-6 space-y-2">
            <input type="hidden" name="intent" value="choose" />
            {actionData.tenants.map((t) => (
              <button
                key={t.slug}
                type="submit"
                name="tenant"
                value={t.slug}
                className="block w-full rounded-brand border border-line bg-elevated px-4 py-3 text-left hover:border-accent"
              >
                <span className="font-medium">{t.name}</span>
                <span className="block text-xs opacity-70">{t.slug}</span>
              </button>
            ))}
          </Form>
        </div>
      </AppShell>
    );
  }

  return (
    <AppShell>
      <div className="mx-auto max-w-md px-6 py-16">
        <h1 className="text-2xl font-bold">{`Sign in${loaderData.tenantName ? ` to ${loaderData.tenantName}` : ""}`}</h1>
        <p className="mt-2 text-sm opacity-80">
          {loaderData.tenantName ? "Use your work e-mail and password." : "We will take you to your organisation's workspace."}
        </p>
        <Form method="post" {...getFormProps(form)} className="mt-8 space-y-5">
          {form.errors?.length ? (
            <div id={form.errorId} role="alert" className="rounded-brand border border-danger bg-danger/10 p-3 text-sm text-danger">
              {form.errors[0]}
            </div>
          ) : null}
          <input type="hidden" name="intent" value="sign-in" />
          <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />
          <Honeypot />
          <Field id={fields.email.id} label="Email" error={fields.email.errors}>
            <input {...getInputProps(fields.email, { type: "email" })} key={fields.email.key} autoComplete="username" className={inputClass} required />
          </Field>
          <Field id={fields.password.id} label="Password" error={fields.password.errors}>
            <input
              {...getInputProps(fields.password, { type: "password" })}
              key={fields.password.key}
              autoComplete="current-password"
              className={inputClass}
              required
            />
          </Field>
          <div className="flex items-center justify-between rounded-brand border border-line p-3">
            <label htmlFor="twoFactor" className="text-sm">
              <span className="font-medium">Two-factor authentication</span>
              <span className="block text-xs opacity-70">
                {loaderData.requireTwoFactor
                  ? "Required by your organisation: a code will be e-mailed to you."
                  : "Get a one-time code by e-mail as a second step."}
              </span>
            </label>
            <span className="flex items-center gap-2 text-xs font-semibold">
              <input
                id="twoFactor"
                name="twoFactor"
                type="checkbox"
                role="switch"
                defaultChecked={loaderData.requireTwoFactor}
                className="peer h-5 w-9 cursor-pointer accent-[hsl(var(--accent))]"
              />
              <span className="peer-checked:hidden">OFF</span>
              <span className="hidden peer-checked:inline">ON</span>
            </span>
          </div>
          <SubmitButton className="w-full" pendingText="Signing in...">
            Sign in
          </SubmitButton>
        </Form>
        <p className="mt-6 text-center text-sm opacity-70">
          Subcontractor?{" "}
          <a href="/portal/login" className="underline">
            Use the subcontractor portal
          </a>
          .
        </p>
      </div>
    </AppShell>
  );
}

export function meta() {
  return [{ title: "Sign in" }];
}
