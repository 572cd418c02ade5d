import { createCookie, redirect } from "react-router";
import { z } from "zod";
import { TOAST_TYPES, type Toast } from "~/utils/toast";
import { secureCookies, sessionSecrets } from "./environment.server";

const toastSchema = z.object({ type: z.enum(TOAST_TYPES), title: z.string().max(200), message: z.string().max(500).optional() });

function flashCookie(env: Env, secure: boolean) {
  return createCookie(secure ? "__Host-flash" : "flash", {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secure,
    secrets: sessionSecrets(env),
    maxAge: 60,
  });
}

export async function setToastHeader(env: Env, toast: Toast): Promise<string> {
  return flashCookie(env, secureCookies(env)).serialize(toast);
}

/** Redirect that shows a toast on the next page, with or without JavaScript. */
export async function redirectWithToast(env: Env, to: string, toast: Toast, init: ResponseInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.append("Set-Cookie", await setToastHeader(env, toast));
  return redirect(to, { ...init, headers });
}

/** Reads the pending toast and the Set-Cookie header that clears it. */
export async function consumeToast(env: Env, request: Request): Promise<{ toast: Toast | null; clear: string | null }> {
  const cookie = flashCookie(env, secureCookies(env, request));
  const raw = await cookie.parse(request.headers.get("Cookie"));
  if (!raw) return { toast: null, clear: null };
  const parsed = toastSchema.safeParse(raw);
  return { toast: parsed.success ? parsed.data : null, clear: await cookie.serialize("", { maxAge: 0 }) };
}
