import { createCookie } from "react-router";
import { THEME_PREFERENCES, type ThemePreference } from "~/db/schema";
import { secureCookies } from "./flash.server";

function themeCookie(env: Env) {
  const secure = secureCookies(env);
  return createCookie(secure ? "__Host-theme" : "theme", { path: "/", sameSite: "lax", secure, httpOnly: true, maxAge: 60 * 60 * 24 * 365 });
}

export function isThemePreference(v: unknown): v is ThemePreference {
  return typeof v === "string" && (THEME_PREFERENCES as readonly string[]).includes(v);
}

export async function readTheme(env: Env, request: Request): Promise<ThemePreference> {
  const v = await themeCookie(env).parse(request.headers.get("Cookie"));
  return isThemePreference(v) ? v : "system";
}

export async function themeSetCookie(env: Env, theme: ThemePreference): Promise<string> {
  return themeCookie(env).serialize(theme);
}
