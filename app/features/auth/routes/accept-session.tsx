import { useEffect, useRef } from "react";
import { data, Form, redirect } from "react-router";
import { Button } from "~/components/ui/button";
import { cloudflareContext, tenantContext } from "~/context";
import { clientIp, writeAudit } from "~/features/platform/audit.server";
import { AppShell } from "~/features/platform/components/app-shell";
import { safeRedirectPath } from "../middleware.server";
import { createSession } from "../session.server";
import { getUserForSession } from "../sign-in.server";
import { burnToken, verifyToken } from "../tokens.server";
import type { Route } from "./+types/accept-session";

/**
 * The tenant host's half of a bare-domain sign-in. GET only shows a button (no GET changes
 * state); the POST burns the single-use token and sets this host's own session cookie.
 */
async function check(env: Env, request: Request, token: string, tenantId: string) {
  const origin = new URL(request.url).origin;
  const verified = await verifyToken(env, token, { kind: "accept-session", audience: origin });
  if (!verified.ok || verified.value.claims.tid !== tenantId) return null;
  return verified.value;
}

const INVALID = "This sign-in link is invalid, has expired or has already been used. Please sign in again.";

export async function loader({ request, context }: Route.LoaderArgs) {
  const { env } = context.get(cloudflareContext);
  const tenant = context.get(tenantContext);
  if (!tenant) throw data("Page not found", { status: 404 });
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const ok = Boolean(await check(env, request, token, tenant.id));
  return data({ token: ok ? token : null, tenantName: tenant.name, error: ok ? null : INVALID }, { status: ok ? 200 : 400 });
}

export async function action({ request, context }: Route.ActionArgs) {
  const { env } = context.get(cloudflareContext);
  const tenant = context.get(tenantContext);
  if (!tenant) throw data("Page not found", { status: 404 });
  const token = String((await request.formData()).get("token") ?? "");
  const ip = clientIp(request);
  const value = await check(env, request, token, tenant.id);
  const fail = async (reason: string) => {
    await writeAudit(env, { tenantId: tenant.id, action: "auth.handover.refused", payload: { reason }, ip });
    return data({ token: null, tenantName: tenant.name, error: INVALID }, { status: 400 });
  };
  if (!value) return fail("invalid");
  if (!(await burnToken(env, { jti: value.jti, kind: "accept-session", tenantId: tenant.id, expiresAt: value.expiresAt }))) return fail("reused");
  const row = await getUserForSession(env, tenant.id, value.subject);
  if (!row) return fail("user");
  const { setCookie } = await createSession(env, { kind: "staff", tenantId: tenant.id, userId: row.user.id, ip });
  await writeAudit(env, { tenantId: tenant.id, action: "auth.login.success", actorId: row.user.id, actorEmail: row.user.email, payload: { method: value.claims.mth ?? "password", via: "bare-domain" }, ip });
  const to = safeRedirectPath(typeof value.claims.rt === "string" ? value.claims.rt : null, "/");
  return redirect(to, { headers: { "Set-Cookie": setCookie } });
}

export default function AcceptSession({ loaderData, actionData }: Route.ComponentProps) {
  const state = actionData ?? loaderData;
  const formRef = useRef<HTMLFormElement>(null);
  // With JavaScript the hand-over continues by itself; without it the button does it.
  useEffect(() => {
    if (state.token) formRef.current?.requestSubmit();
  }, [state.token]);
  return (
    <AppShell>
      <main className="mx-auto max-w-md px-6 py-16 text-center">
        {state.token ? (
          <>
            <h1 className="text-2xl font-bold">{`Continue to ${state.tenantName}`}</h1>
            <p className="mt-2 text-sm opacity-80">You are signed in. Continue to open your workspace.</p>
            <Form method="post" ref={formRef} className="mt-8">
              <input type="hidden" name="token" value={state.token} />
              <Button type="submit">{`Continue to ${state.tenantName}`}</Button>
            </Form>
          </>
        ) : (
          <>
            <h1 className="text-2xl font-bold">Sign-in link not valid</h1>
            <p className="mt-2 text-sm opacity-80" role="alert">
              {state.error}
            </p>
            <a href="/login" className="mt-6 inline-block underline">
              Back to login
            </a>
          </>
        )}
      </main>
    </AppShell>
  );
}

export function meta() {
  return [{ title: "Signing you in" }];
}
