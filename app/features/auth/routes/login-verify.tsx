import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, Link, redirect } from "react-router";
import { SubmitButton } from "~/components/ui/button";
import { cloudflareContext, tenantContext } from "~/context";
import { AppShell } from "~/features/platform";
import { CodeInput } from "../components/code-input";
import { challengeCookie, codeSignIn, hasLiveChallenge } from "../login-flow.server";
import { CODE_FORMAT, INVALID_CODE } from "../messages";
import { codeSchema } from "../schemas";
import { codeFailuresMessage } from "../throttle.server";
import type { Route } from "./+types/login-verify";

export async function loader({ request, context }: Route.LoaderArgs) {
  const { env } = context.get(cloudflareContext);
  const tenant = context.get(tenantContext);
  if (!(await challengeCookie(env).parse(request.headers.get("Cookie")))) throw redirect("/login");
  return { live: await hasLiveChallenge(env, request, tenant?.id ?? null) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { env } = context.get(cloudflareContext);
  const tenant = context.get(tenantContext);
  const submission = parseWithZod(await request.formData(), { schema: codeSchema });
  if (submission.status !== "success") return data({ error: CODE_FORMAT, at: Date.now() }, { status: 400 });
  const result = await codeSignIn(env, request, tenant, submission.value.code);
  if (result.ok) return redirect(result.location, { headers: result.headers });
  if (result.code === "code_step_locked") return data({ error: codeFailuresMessage(result.waitMs), at: Date.now() }, { status: 429 });
  return data({ error: INVALID_CODE, at: Date.now() }, { status: 400 });
}

export default function LoginVerify({ loaderData, actionData }: Route.ComponentProps) {
  const error = actionData && "error" in actionData ? actionData.error : loaderData.live ? null : INVALID_CODE;
  return (
    <AppShell>
      <div className="mx-auto max-w-md px-6 py-16">
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
          <SubmitButton className="w-full" pendingText="Verifying...">
            Verify
          </SubmitButton>
        </Form>
        <p className="mt-6 text-center text-sm">
          <Link to="/login" className="underline">
            Back to login
          </Link>
        </p>
      </div>
    </AppShell>
  );
}

export function meta() {
  return [{ title: "Enter your code" }];
}
