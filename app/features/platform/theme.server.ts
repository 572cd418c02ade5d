import { createCookie } from "react-router";
import { z } from "zod";
import { THEME_PREFERENCES, type ThemePreference } from "~/db/schema";
import { secureCookies } from "./environment.server";

function themeCookie(env: Env, request: Request) {
  const secure = secureCookies(env, request);
  return createCookie(secure ? "__Host-theme" : "theme", { path: "/", sameSite: "lax", secure, httpOnly: true, maxAge: 60 * 60 * 24 * 365 });
}

export const themeFormSchema = z.object({
  theme: z.enum(THEME_PREFERENCES),
  redirectTo: z.string().max(2000).optional(),
});

function isThemePreference(v: unknown): v is ThemePreference {
  return typeof v === "string" && (THEME_PREFERENCES as readonly string[]).includes(v);
}

export async function readTheme(env: Env, request: Request): Promise<ThemePreference> {
  const v = await themeCookie(env, request).parse(request.headers.get("Cookie"));
  return isThemePreference(v) ? v : "system";
}

export async function themeSetCookie(env: Env, request: Request, theme: ThemePreference): Promise<string> {
  return themeCookie(env, request).serialize(theme);
}
