import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, redirect } from "react-router";
import { Button } from "~/components/ui/button";
import { cloudflareContext, tenantContext } from "~/context";
import { AppShell } from "~/features/platform";
import { acceptHandover, inspectHandover } from "../login-flow.server";
import { acceptSessionSchema } from "../schemas";
import type { Route } from "./+types/accept-session";

/**
 * The tenant host's half of a bare-domain sign-in. GET only shows whose account and which
 * workspace the link opens; nothing happens until the person clicks. There is deliberately no
 * script that submits for them: a hand-over link sent by someone else would otherwise sign the
 * visitor in to the sender's account. The POST burns the single-use token and sets this host's
 * own session cookie.
 */
const INVALID = "This sign-in link is invalid, has expired or has already been used. Please sign in again.";

export async function loader({ request, context }: Route.LoaderArgs) {
  const { env } = context.get(cloudflareContext);
  const tenant = context.get(tenantContext);
  if (!tenant) throw data("Page not found", { status: 404 });
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const inspected = token ? await inspectHandover(env, request, tenant.id, token) : { ok: false as const };
  if (!inspected.ok) return data({ token: null, email: null, tenantName: tenant.name, error: INVALID }, { status: 400 });
  return { token, email: inspected.email, tenantName: tenant.name, error: null };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { env } = context.get(cloudflareContext);
  const tenant = context.get(tenantContext);
  if (!tenant) throw data("Page not found", { status: 404 });
  const submission = parseWithZod(await request.formData(), { schema: acceptSessionSchema });
  const result = submission.status === "success" ? await acceptHandover(env, request, tenant.id, submission.value.token) : null;
  if (result?.ok) return redirect(result.location, { headers: result.headers });
  return data({ token: null, email: null, tenantName: tenant.name, error: INVALID }, { status: 400 });
}

export default function AcceptSession({ loaderData, actionData }: Route.ComponentProps) {
  const state = actionData ?? loaderData;
  return (
    <AppShell>
      <div className="mx-auto max-w-md px-6 py-16 text-center">
        {state.token ? (
          <>
            <h1 className="text-2xl font-bold">{`Continue to ${state.tenantName}`}</h1>
            <p className="mt-2 text-sm opacity-80">
              You are about to open <strong>{state.tenantName}</strong> signed in as <strong>{state.email}</strong>. If that is not your account, close this
              page.
            </p>
            <Form method="post" className="mt-8">
              <input type="hidden" name="token" value={state.token} />
              <Button type="submit">{`Continue to ${state.tenantName} as ${state.email}`}</Button>
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
      </div>
    </AppShell>
  );
}

export function meta() {
  return [{ title: "Continue to your workspace" }];
}
