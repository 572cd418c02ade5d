import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { cloudflareContext, tenantContext } from "~/context";
import { clientIp, writeAudit } from "~/features/platform/audit.server";
import { AppShell } from "~/features/platform/components/app-shell";
import { CodeInput } from "../components/code-input";
import { challengeCookie, completeSignIn } from "../login-flow.server";
import { codeSchema, INVALID_CODE } from "../schemas";
import { getLiveChallenge, getUserForSession, verifyChallengeCode } from "../sign-in.server";
import type { Route } from "./+types/login-verify";

async function challengeIdFrom(env: Env, request: Request): Promise<string | null> {
  const v = await challengeCookie(env).parse(request.headers.get("Cookie"));
  return typeof v === "string" && v ? v : null;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { env } = context.get(cloudflareContext);
  const tenant = context.get(tenantContext);
  const id = await challengeIdFrom(env, request);
  if (!id) throw redirect("/login");
  const challenge = await getLiveChallenge(env, id);
  // A challenge belongs to one tenant: a cookie replayed on another tenant's host is useless.
  const live = Boolean(challenge && (!tenant || challenge.tenantId === tenant.id));
  return { live };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { env } = context.get(cloudflareContext);
  const tenant = context.get(tenantContext);
  const formData = await request.formData();
  const submission = parseWithZod(formData, { schema: codeSchema });
  if (submission.status !== "success") return data({ error: "Please enter the full 6-digit code", at: Date.now() }, { status: 400 });
  const id = await challengeIdFrom(env, request);
  const pending = id ? await getLiveChallenge(env, id) : null;
  const ip = clientIp(request);
  if (!id || !pending || (tenant && pending.tenantId !== tenant.id)) {
    return data({ error: INVALID_CODE, at: Date.now() }, { status: 400 });
  }
  const challenge = await verifyChallengeCode(env, id, submission.value.code);
  if (!challenge) {
    await writeAudit(env, { tenantId: pending.tenantId, action: "auth.code.invalid", actorId: pending.userId, targetType: "login_challenge", targetId: id, ip });
    return data({ error: INVALID_CODE, at: Date.now() }, { status: 400 });
  }
  const row = await getUserForSession(env, challenge.tenantId, challenge.userId);
  if (!row) return data({ error: INVALID_CODE, at: Date.now() }, { status: 400 });
  const headers = new Headers({ "Set-Cookie": await challengeCookie(env).serialize("", { maxAge: 0 }) });
  return completeSignIn(
    env,
    request,
    { onTenantHost: Boolean(tenant), user: row.user, tenantSlug: row.tenant.slug, redirectTo: challenge.redirectTo, method: "password+code" },
    headers,
  );
}

export default function LoginVerify({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  const error = actionData && "error" in actionData ? actionData.error : loaderData.live ? null : INVALID_CODE;
  return (
    <AppShell>
      <main className="mx-auto max-w-md px-6 py-16">
        <h1 className="text-2xl font-bold">Enter your code</h1>
        <p className="mt-2 text-sm opacity-80">We e-mailed you a 6-digit code. It expires in 10 minutes.</p>
        <Form method="post" className="mt-8 space-y-4" noValidate>
          <label htmlFor="code" className="block text-sm font-medium">
            Verification code
          </label>
          <CodeInput error={error} resetKey={actionData && "at" in actionData ? actionData.at : undefined} />
          {error ? (
            <p id="code-error" role="alert" className="text-sm text-danger">
              {error}
            </p>
          ) : null}
          <Button type="submit" className="w-full" disabled={busy}>
            {busy ? "Verifying..." : "Verify"}
          </Button>
        </Form>
        <p className="mt-6 text-center text-sm">
          <Link to="/login" className="underline">
            Back to login
          </Link>
        </p>
      </main>
    </AppShell>
  );
}

export function meta() {
  return [{ title: "Enter your code" }];
}
