import { parseWithZod } from "@conform-to/zod/v4";
import { data, type RouterContextProvider } from "react-router";
import { cloudflareContext } from "~/context";
import { requireTenant } from "~/features/auth/index.server";
import { WEAK_PASSWORD_MESSAGE } from "~/features/auth/index.server";
import { throttleMessage } from "~/features/auth/index.server";
import { clientIp } from "~/features/platform/index.server";
import { redirectWithToast } from "~/features/platform/index.server";
import type { Toast } from "~/utils/toast";
import { LINK_ERRORS } from "./codes";
import type { LinkProblem } from "./invitations.server";
import { setPasswordSchema } from "./schemas";
import type { Result } from "~/utils/result";

/*
 * The two pages a mailed link opens to set a password (activating an invitation, resetting a
 * password) answer the same way: the loader says whether the link still works, without using it;
 * the action sets the password through the link, then sends the person on: an activation signs
 * them in, a reset sends them to sign in.
 */

type LinkCheck = Result<{ email: string }, LinkProblem>;
type LinkUse = (
  env: Env,
  tenantId: string,
  input: {
    token: string;
    password: string;
    ip: string | null;
  },
) => Promise<Result<{ setCookie?: string }, LinkProblem | "throttled" | "weak_password", { waitMs?: number }>>;

type Ctx = Readonly<RouterContextProvider>;

/** The loader's answer on this tenant's host: the link's token and e-mail address, or what is wrong with the link. */
export async function passwordLinkState(context: Ctx, request: Request, check: (env: Env, tenantId: string, token: string) => Promise<LinkCheck>) {
  const { env } = context.get(cloudflareContext);
  const tenant = requireTenant(context);
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const link = await check(env, tenant.id, token);
  return link.ok ? { token, email: link.email, problem: null } : { token: "", email: "", problem: LINK_ERRORS[link.code] };
}

/**
 * The action on this tenant's host: sets the password through `use`, and on success redirects to `to`
 * with `done` (sign in, unless the link signed the person in: then its session cookie goes with the redirect).
 */
export async function setPasswordFromLink(context: Ctx, request: Request, use: LinkUse, done: Toast, to = "/login") {
  const { env } = context.get(cloudflareContext);
  const tenant = requireTenant(context);
  const submission = parseWithZod(await request.formData(), { schema: setPasswordSchema });
  if (submission.status !== "success") return data({ result: submission.reply({ hideFields: ["password", "confirm"] }), problem: null }, { status: 400 });
  const res = await use(env, tenant.id, { token: submission.value.token, password: submission.value.password, ip: clientIp(request) });
  if (!res.ok) {
    const code = res.code;
    // The typed password stays in the field so it can be changed rather than retyped.
    if (code === "weak_password")
      return data({ result: submission.reply({ fieldErrors: { password: [WEAK_PASSWORD_MESSAGE] } }), problem: null }, { status: 400 });
    const problem = code === "throttled" ? throttleMessage(res.waitMs ?? 0) : LINK_ERRORS[code];
    return data({ result: submission.reply({ hideFields: ["password", "confirm"] }), problem }, { status: res.code === "throttled" ? 429 : 400 });
  }
  return redirectWithToast(env, to, done, res.setCookie ? { headers: { "Set-Cookie": res.setCookie } } : {});
}
