import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, redirect } from "react-router";
import { SubmitButton } from "~/components/ui/button";
import { Field, inputClass } from "~/components/ui/field";
import { EmptyRow, TBody, TD, TH, THead, TR, Table } from "~/components/ui/table";
import { requireModule } from "~/features/auth/index.server";
import { clearSessionCookie } from "~/features/auth/index.server";
import { WEAK_PASSWORD_MESSAGE } from "~/features/auth/index.server";
import { throttleMessage } from "~/features/auth/index.server";
import { AppShell } from "~/features/platform";
import { redirectWithToast, setToastHeader } from "~/features/platform/index.server";
import { formatDateTime } from "~/utils/dates";
import { changeOwnPassword, listOwnSessions, revokeOwnSession, setOwnDisplayName } from "../account.server";
import { NewPasswordFields } from "../components/set-password-form";
import { accountActionSchema } from "../schemas";
import { accountIntentSchema, type accountNameSchema } from "../schemas";
import type { z } from "zod";
import type { Route } from "./+types/account";

const PATH = "/account";

export async function loader({ request, context }: Route.LoaderArgs) {
  const { env, tenant, user } = await requireModule(request, context, { module: "workspace" });
  return {
    displayName: user.displayName,
    email: user.email,
    sessions: await listOwnSessions(env, tenant.id, user.id, user.sessionIdHash),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { env, tenant, user, ip } = await requireModule(request, context, { module: "workspace" });
  const formData = await request.formData();
  const intent = accountIntentSchema.safeParse({ intent: formData.get("intent") });
  if (!intent.success) throw data("Unknown action", { status: 400 });
  const submission = parseWithZod(formData, { schema: accountActionSchema });
  const hidden = { hideFields: ["current", "password", "confirm"] };
  if (submission.status !== "success") {
    if (intent.data.intent === "revoke") throw data("Invalid request", { status: 400 });
    return data({ intent: intent.data.intent, result: submission.reply(hidden) }, { status: 400 });
  }
  const input = submission.value;
  const me = { userId: user.id, email: user.email, ip };
  switch (input.intent) {
    case "password": {
      const res = await changeOwnPassword(env, tenant.id, {
        ...me,
        current: input.current,
        password: input.password,
        person: { email: user.email, names: [user.displayName], workspace: tenant.name },
      });
      if (!res.ok && res.code === "weak_password") {
        // The new password stays in its field to be changed; the current one is not sent back.
        return data(
          { intent: "password" as const, result: submission.reply({ hideFields: ["current"], fieldErrors: { password: [WEAK_PASSWORD_MESSAGE] } }) },
          { status: 400 },
        );
      }
      if (!res.ok) {
        const message = res.code === "throttled" ? throttleMessage(res.waitMs ?? 0) : "The current password is not correct";
        return data(
          { intent: "password" as const, result: submission.reply({ ...hidden, fieldErrors: { current: [message] } }) },
          { status: res.code === "throttled" ? 429 : 400 },
        );
      }
      return redirectWithToast(
        env,
        PATH,
        { type: "success", title: "Password changed", message: "Every other session has ended." },
        { headers: { "Set-Cookie": res.setCookie } },
      );
    }
    case "name": {
      await setOwnDisplayName(env, tenant.id, { ...me, displayName: input.displayName });
      return redirectWithToast(env, PATH, { type: "success", title: "Display name saved" });
    }
    case "revoke": {
      const ended = await revokeOwnSession(env, tenant.id, { ...me, idHash: input.session });
      if (input.session === user.sessionIdHash && ended) {
        const headers = new Headers();
        headers.append("Set-Cookie", await clearSessionCookie(env, "staff"));
        headers.append("Set-Cookie", await setToastHeader(env, { type: "info", title: "Signed out", message: "You ended this session." }));
        return redirect("/login", { headers });
      }
      return redirectWithToast(env, PATH, ended ? { type: "success", title: "Session ended" } : { type: "error", title: "That session had already ended" });
    }
  }
}

export default function Account({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <AppShell>
      <div className="mx-auto max-w-4xl px-6 py-10">
        <h1 className="text-2xl font-bold">Account</h1>
        <p className="text-sm opacity-70">Signed in as {loaderData.email}</p>
        <NameForm displayName={loaderData.displayName} lastResult={actionData?.intent === "name" ? actionData.result : undefined} />
        <PasswordForm email={loaderData.email} lastResult={actionData?.intent === "password" ? actionData.result : undefined} />
        <section className="mt-8" aria-labelledby="sessions-heading">
          <h2 id="sessions-heading" className="text-lg font-semibold">
            Sessions
          </h2>
          <p className="text-sm opacity-70">Where you are signed in to this workspace. Ending a session signs that browser out at once.</p>
          <Table caption="Your sessions, most recently used first" scrollClassName="mt-4 overflow-x-auto">
            <THead>
              <TH>Signed in</TH>
              <TH>Last seen</TH>
              <TH>IP address</TH>
              <TH>Actions</TH>
            </THead>
            <TBody>
              {loaderData.sessions.length === 0 ? <EmptyRow colSpan={4}>No sessions</EmptyRow> : null}
              {loaderData.sessions.map((s) => (
                <TR key={s.id} data-session={s.current ? "current" : "other"}>
                  <TD className="whitespace-nowrap">
                    {formatDateTime(s.createdAt)}
                    {s.current ? <span className="ml-2 rounded-full bg-accent px-2 py-0.5 text-xs text-accent-foreground">This session</span> : null}
                  </TD>
                  <TD className="whitespace-nowrap">{formatDateTime(s.lastSeenAt)}</TD>
                  <TD>{s.ip ?? "N/A"}</TD>
                  <TD>
                    <Form method="post">
                      <input type="hidden" name="intent" value="revoke" />
                      <input type="hidden" name="session" value={s.id} />
                      <SubmitButton variant="secondary" className="px-2 py-1" pendingText="Ending..." match={{ intent: "revoke", session: s.id }}>
                        {s.current ? "Sign out this session" : "End session"}
                      </SubmitButton>
                    </Form>
                  </TD>
                </TR>
              ))}
            </TBody>
          </Table>
        </section>
      </div>
    </AppShell>
  );
}

function NameForm({ displayName, lastResult }: { displayName: string; lastResult?: SubmissionResult<string[]> }) {
  const [form, fields] = useForm<z.input<typeof accountNameSchema>>({
    id: "name-form",
    lastResult,
    defaultValue: { displayName },
  });
  return (
    <section className="mt-8 rounded-brand border border-line bg-elevated p-6" aria-labelledby="name-heading">
      <h2 id="name-heading" className="text-lg font-semibold">
        Display name
      </h2>
      <Form method="post" {...getFormProps(form)} className="mt-4 flex flex-wrap items-end gap-3">
        <input type="hidden" name="intent" value="name" />
        <div className="min-w-64 flex-1">
          <Field id={fields.displayName.id} label="Display name" error={fields.displayName.errors}>
            <input {...getInputProps(fields.displayName, { type: "text" })} key={fields.displayName.key} autoComplete="name" className={inputClass} />
          </Field>
        </div>
        <SubmitButton pendingText="Saving..." match={{ intent: "name" }}>
          Save name
        </SubmitButton>
      </Form>
    </section>
  );
}

function PasswordForm({ email, lastResult }: { email: string; lastResult?: SubmissionResult<string[]> }) {
  const [form, fields] = useForm<z.input<typeof accountActionSchema>>({
    id: "password-form",
    lastResult,
  });
  return (
    <section className="mt-8 rounded-brand border border-line bg-elevated p-6" aria-labelledby="password-heading">
      <h2 id="password-heading" className="text-lg font-semibold">
        Change password
      </h2>
      <p className="text-sm opacity-70">Changing it signs you out everywhere else.</p>
      <Form method="post" {...getFormProps(form)} className="mt-4 max-w-md space-y-4">
        <input type="hidden" name="intent" value="password" />
        <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
        <Field id={fields.current.id} label="Current password" error={fields.current.errors}>
          <input {...getInputProps(fields.current, { type: "password" })} key={fields.current.key} autoComplete="current-password" className={inputClass} />
        </Field>
        <NewPasswordFields password={fields.password} confirm={fields.confirm} />
        <SubmitButton pendingText="Changing..." match={{ intent: "password" }}>
          Change password
        </SubmitButton>
      </Form>
    </section>
  );
}

export function meta() {
  return [{ title: "Account" }];
}
