import { getFormProps, getInputProps, type SubmissionResult, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { createCookie, data, Form, redirect, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { Field, Honeypot, inputClass } from "~/components/ui/field";
import { cloudflareContext, tenantContext, userContext } from "~/context";
import { clientIp, writeAudit } from "~/features/platform/audit.server";
import { AppShell } from "~/features/platform/components/app-shell";
import { secureCookies, sessionSecrets } from "~/features/platform/environment.server";
import { completeSignIn, challengeCookie } from "../login-flow.server";
import { safeRedirectPath } from "../middleware.server";
import { LOGIN_FAILED, loginSchema, SEND_CODE_FAILED } from "../schemas";
import { createSession } from "../session.server";
import { checkCredentialsAcrossTenants, checkPlatformCredentials, checkTenantCredentials, findTenantIdBySlug, getUserForSession, needsTwoFactor, startChallenge } from "../sign-in.server";
import { formErrorReply } from "~/utils/forms";
import { clearFailures, recordFailure, throttledFor, throttleKeys, throttleMessage } from "../throttle.server";
import { signToken, verifyToken } from "../tokens.server";
import type { Route } from "./+types/login";

function choiceCookie(env: Env) {
  const secure = secureCookies(env);
  return createCookie(secure ? "__Host-login-choice" : "login-choice", { httpOnly: true, sameSite: "lax", secure, path: "/", secrets: sessionSecrets(env), maxAge: 300 });
}

export function loader({ request, context }: Route.LoaderArgs) {
  const tenant = context.get(tenantContext);
  const user = context.get(userContext);
  const redirectTo = safeRedirectPath(new URL(request.url).searchParams.get("redirectTo"), "");
  if (user) throw redirect(tenant ? redirectTo || "/" : "/superadmin");
  return { tenantName: tenant?.name ?? null, redirectTo, requireTwoFactor: Boolean(tenant?.requireTwoFactor) };
}

type ActionResult =
  | { kind: "form"; result: SubmissionResult<string[]> }
  | { kind: "choose"; tenants: { slug: string; name: string }[]; email: string };
type Fail = (message: string) => ReturnType<typeof data<ActionResult>>;

export async function action({ request, context }: Route.ActionArgs) {
  const { env } = context.get(cloudflareContext);
  const tenant = context.get(tenantContext);
  const formData = await request.formData();
  const ip = clientIp(request);

  // Bare domain, second step: the e-mail has accounts in several tenants and the user chose one.
  if (!tenant && formData.get("intent") === "choose") return chooseTenant(env, request, formData);

  const submission = parseWithZod(formData, { schema: loginSchema });
  if (submission.status !== "success") {
    return data<ActionResult>({ kind: "form", result: submission.reply({ hideFields: ["password"] }) }, { status: 400 });
  }
  const { email, password, twoFactor, website } = submission.value;
  const redirectTo = safeRedirectPath(submission.value.redirectTo, "") || null;
  const fail = (message: string, status = 400) => data<ActionResult>({ kind: "form", result: submission.reply({ formErrors: [message], hideFields: ["password"] }) }, { status });

  // Robots fill the honeypot; they get the ordinary failure and nothing else happens.
  if (website) return fail(LOGIN_FAILED);

  const keys = throttleKeys(tenant?.id ?? "*", email, ip);
  const wait = await throttledFor(env, keys);
  if (wait > 0) {
    await writeAudit(env, { tenantId: tenant?.id ?? null, action: "auth.login.throttled", actorEmail: email, ip });
    return fail(throttleMessage(wait), 429);
  }

  if (tenant) {
    const user = await checkTenantCredentials(env, tenant.id, email, password);
    if (!user) {
      await recordFailure(env, keys);
      await writeAudit(env, { tenantId: tenant.id, action: "auth.login.failed", actorEmail: email, ip });
      return fail(LOGIN_FAILED);
    }
    await clearFailures(env, keys[0].key);
    if (needsTwoFactor({ toggle: Boolean(twoFactor), userRequired: user.twoFactorRequired, tenantRequired: tenant.requireTwoFactor })) {
      return toCodeStep(env, user, tenant.name, redirectTo, ip, fail);
    }
    return completeSignIn(env, request, { onTenantHost: true, user, tenantSlug: tenant.slug, redirectTo, method: "password" });
  }

  // Bare domain: platform operators first, then tenant accounts.
  const admin = await checkPlatformCredentials(env, email, password);
  if (admin) {
    await clearFailures(env, keys[0].key);
    const { setCookie } = await createSession(env, { kind: "platform", tenantId: null, userId: admin.id, ip });
    await writeAudit(env, { tenantId: null, action: "auth.login.success", actorId: admin.id, actorEmail: admin.email, payload: { platform: true }, ip });
    return redirect("/superadmin", { headers: { "Set-Cookie": setCookie } });
  }
  const matches = await checkCredentialsAcrossTenants(env, email, password);
  if (matches.length === 0) {
    await recordFailure(env, keys);
    await writeAudit(env, { tenantId: null, action: "auth.login.failed", actorEmail: email, ip });
    return fail(LOGIN_FAILED);
  }
  await clearFailures(env, keys[0].key);
  if (matches.length > 1) {
    // Remember which accounts proved the password, without echoing the password back.
    const { token } = await signToken(env, {
      kind: "login-choice",
      subject: email,
      audience: new URL(request.url).origin,
      ttlSeconds: 300,
      claims: { acc: matches.map((m) => [m.tenant.id, m.user.id]), tf: Boolean(twoFactor), rt: redirectTo },
    });
    return data<ActionResult>(
      { kind: "choose", email, tenants: matches.map((m) => ({ slug: m.tenant.slug, name: m.tenant.name })) },
      { headers: { "Set-Cookie": await choiceCookie(env).serialize(token) } },
    );
  }
  return continueWithAccount(env, request, matches[0].user.id, matches[0].user.tenantId, Boolean(twoFactor), redirectTo, fail);
}

async function chooseTenant(env: Env, request: Request, formData: FormData) {
  const token = await choiceCookie(env).parse(request.headers.get("Cookie"));
  const verified = typeof token === "string" ? await verifyToken(env, token, { kind: "login-choice", audience: new URL(request.url).origin }) : null;
  const fail = (message: string) => data<ActionResult>({ kind: "form", result: formErrorReply(message) }, { status: 400 });
  if (!verified?.ok) return fail("Your sign-in has expired. Please sign in again.");
  const accounts = verified.value.claims.acc as [string, string][];
  const tenantId = await findTenantIdBySlug(env, String(formData.get("tenant") ?? ""));
  const account = tenantId ? accounts.find(([tid]) => tid === tenantId) : undefined;
  if (!account) return fail("Choose one of the workspaces listed.");
  const headers = new Headers({ "Set-Cookie": await choiceCookie(env).serialize("", { maxAge: 0 }) });
  const redirectTo = typeof verified.value.claims.rt === "string" ? verified.value.claims.rt : null;
  return continueWithAccount(env, request, account[1], account[0], Boolean(verified.value.claims.tf), redirectTo, fail, headers);
}

async function continueWithAccount(
  env: Env,
  request: Request,
  userId: string,
  tenantId: string,
  toggle: boolean,
  redirectTo: string | null,
  fail: Fail,
  headers: Headers = new Headers(),
) {
  const row = await getUserForSession(env, tenantId, userId);
  if (!row) return fail(LOGIN_FAILED);
  if (needsTwoFactor({ toggle, userRequired: row.user.twoFactorRequired, tenantRequired: row.tenant.requireTwoFactor })) {
    return toCodeStep(env, row.user, row.tenant.name, redirectTo, clientIp(request), fail, headers);
  }
  return completeSignIn(env, request, { onTenantHost: false, user: row.user, tenantSlug: row.tenant.slug, redirectTo, method: "password" }, headers);
}

async function toCodeStep(
  env: Env,
  user: Parameters<typeof startChallenge>[1]["user"],
  tenantName: string,
  redirectTo: string | null,
  ip: string | null,
  fail: Fail,
  headers: Headers = new Headers(),
) {
  const started = await startChallenge(env, { user, tenantName, redirectTo, ip });
  if (!started.ok) return fail(SEND_CODE_FAILED);
  headers.append("Set-Cookie", await challengeCookie(env).serialize(started.challengeId));
  return redirect("/login/verify", { headers });
}

export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  const result = actionData && "kind" in actionData && actionData.kind === "form" ? actionData.result : undefined;
  const [form, fields] = useForm({
    lastResult: result,
    onValidate({ formData }) {
      return parseWithZod(formData, { schema: loginSchema });
    },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });

  if (actionData && "kind" in actionData && actionData.kind === "choose") {
    return (
      <AppShell>
        <main className="mx-auto max-w-md px-6 py-16">
          <h1 className="text-2xl font-bold">Choose a workspace</h1>
          <p className="mt-2 text-sm opacity-80">{actionData.email} has accounts in several workspaces. Which one do you want to open?</p>
          <Form method="post" className="mt-6 space-y-2">
            <input type="hidden" name="intent" value="choose" />
            {actionData.tenants.map((t) => (
              <button key={t.slug} type="submit" name="tenant" value={t.slug} className="block w-full rounded-brand border border-line bg-elevated px-4 py-3 text-left hover:border-accent">
                <span className="font-medium">{t.name}</span>
                <span className="block text-xs opacity-70">{t.slug}</span>
              </button>
            ))}
          </Form>
        </main>
      </AppShell>
    );
  }

  return (
    <AppShell>
      <main className="mx-auto max-w-md px-6 py-16">
        <h1 className="text-2xl font-bold">{`Sign in${loaderData.tenantName ? ` to ${loaderData.tenantName}` : ""}`}</h1>
        <p className="mt-2 text-sm opacity-80">{loaderData.tenantName ? "Use your work e-mail and password." : "We will take you to your organisation's workspace."}</p>
        <Form method="post" {...getFormProps(form)} className="mt-8 space-y-5">
          {form.errors?.length ? (
            <div id={form.errorId} role="alert" className="rounded-brand border border-danger bg-danger/10 p-3 text-sm text-danger">
              {form.errors[0]}
            </div>
          ) : null}
          <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />
          <Honeypot />
          <Field id={fields.email.id} label="Email" error={fields.email.errors}>
            <input {...getInputProps(fields.email, { type: "email" })} key={fields.email.key} autoComplete="username" className={inputClass} required />
          </Field>
          <Field id={fields.password.id} label="Password" error={fields.password.errors}>
            <input {...getInputProps(fields.password, { type: "password" })} key={fields.password.key} autoComplete="current-password" className={inputClass} required />
          </Field>
          <div className="flex items-center justify-between rounded-brand border border-line p-3">
            <label htmlFor="twoFactor" className="text-sm">
              <span className="font-medium">Two-factor authentication</span>
              <span className="block text-xs opacity-70">
                {loaderData.requireTwoFactor ? "Required by your organisation: a code will be e-mailed to you." : "Get a one-time code by e-mail as a second step."}
              </span>
            </label>
            <span className="flex items-center gap-2 text-xs font-semibold">
              <input id="twoFactor" name="twoFactor" type="checkbox" role="switch" defaultChecked={loaderData.requireTwoFactor} className="peer h-5 w-9 cursor-pointer accent-[hsl(var(--accent))]" />
              <span className="peer-checked:hidden">OFF</span>
              <span className="hidden peer-checked:inline">ON</span>
            </span>
          </div>
          <Button type="submit" className="w-full" disabled={busy}>
            {busy ? "Signing in..." : "Sign in"}
          </Button>
        </Form>
        <p className="mt-6 text-center text-sm opacity-70">
          Subcontractor? <a href="/portal/login" className="underline">Use the subcontractor portal</a>.
        </p>
      </main>
    </AppShell>
  );
}

export function meta() {
  return [{ title: "Sign in" }];
}
