import { data, isRouteErrorResponse, Links, Meta, Outlet, Scripts, ScrollRestoration, useRouteLoaderData } from "react-router";
import type { Route } from "./+types/root";
import "./app.css";
// Registers every feature's scopes, for the server render and the client bundle alike.
import "./scopes";
import { Toaster } from "./components/ui/toaster";
import { cloudflareContext, tenantContext } from "./context";
import { authMiddleware, optionalUser } from "./features/auth/middleware.server";
import { brandingCssVars, effectiveTheme } from "./features/platform/branding";
import { AppShell } from "./features/platform/components/app-shell";
import { consumeToast } from "./features/platform/flash.server";
import { readTheme } from "./features/platform/theme.server";
import { tenantMiddleware } from "./middleware/tenant.server";

export const middleware: Route.MiddlewareFunction[] = [tenantMiddleware, authMiddleware];

export async function loader({ request, context }: Route.LoaderArgs) {
  const { env, nonce } = context.get(cloudflareContext);
  const tenant = context.get(tenantContext);
  const user = optionalUser(context);
  const { toast, clear } = await consumeToast(env, request);
  const cookieTheme = await readTheme(env, request);
  const preference = user?.themePreference ?? cookieTheme;
  const headers = new Headers();
  if (clear) headers.append("Set-Cookie", clear);
  return data(
    {
      nonce,
      toast,
      theme: effectiveTheme(preference, tenant?.branding.appearance),
      themePreference: preference,
      cssVars: brandingCssVars(tenant?.branding),
      tenant: tenant ? { slug: tenant.slug, name: tenant.name, modules: tenant.modules.map(({ id, label, route, icon }) => ({ id, label, route, icon })) } : null,
      user: user ? { displayName: user.displayName, email: user.email, role: user.role, userStatus: user.userStatus, kind: user.kind } : null,
    },
    { headers },
  );
}

export type RootData = Awaited<ReturnType<typeof loader>>["data"];

export function Layout({ children }: { children: React.ReactNode }) {
  const root = useRouteLoaderData<typeof loader>("root");
  return (
    <html lang="en-GB" data-theme={root?.theme ?? "system"} style={(root?.cssVars ?? brandingCssVars(null)) as React.CSSProperties}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body className="min-h-screen bg-primary-bg font-sans text-gray-900 antialiased dark:text-gray-100">
        {children}
        <Toaster toast={root?.toast ?? null} />
        <ScrollRestoration nonce={root?.nonce} />
        <Scripts nonce={root?.nonce} />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function meta() {
  return [{ title: "Workspace" }];
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  let status = 500;
  let title = "Something went wrong";
  let detail = "An unexpected error occurred. Please try again.";
  if (isRouteErrorResponse(error)) {
    status = error.status;
    if (status === 403) {
      title = "Forbidden";
      detail = typeof error.data === "string" && error.data ? error.data : "You do not have permission to view this page.";
    } else if (status === 404) {
      title = typeof error.data === "string" && error.data ? error.data : "Page not found";
      detail = title === "Workspace not found" ? "There is no workspace at this address. Check the link you followed." : "The page you asked for does not exist or has moved.";
    } else {
      title = `${status} ${error.statusText || "Error"}`;
    }
  } else if (import.meta.env.DEV && error instanceof Error) {
    detail = error.message;
  }
  return (
    <AppShell>
      <main className="mx-auto max-w-xl px-6 py-24 text-center" data-status={status}>
        <p className="text-sm font-semibold text-accent">{status}</p>
        <h1 className="mt-2 text-3xl font-bold">{title}</h1>
        <p className="mt-4 opacity-80">{detail}</p>
        <a href="/" className="mt-8 inline-block text-accent underline">
          Go to the home page
        </a>
      </main>
    </AppShell>
  );
}
