import { data, isRouteErrorResponse, Links, Meta, Outlet, Scripts, ScrollRestoration, useRouteLoaderData } from "react-router";
import type { Route } from "./+types/root";
import "./app.css";
import { Toaster } from "./components/ui/toaster";
import { cloudflareContext, tenantContext } from "./context";
import { mayEnter } from "./features/auth/index.server";
import { optionalUser } from "./features/auth/index.server";
import { can } from "./features/auth";
import { brandingCssVars, effectiveTheme } from "./features/platform";
import { AppShell, type ShellData } from "./features/platform";
import { InternalErrorMessage } from "./features/platform";
import { consumeToast } from "./features/platform/index.server";
import { routeErrorCode } from "./features/platform";
import { readTheme } from "./features/platform/index.server";
import { tenantMiddleware } from "./middleware/tenant.server";
import { useNonce } from "./nonce";

export const middleware: Route.MiddlewareFunction[] = [tenantMiddleware];

export async function loader({ request, context }: Route.LoaderArgs) {
  const { env } = context.get(cloudflareContext);
  const tenant = context.get(tenantContext);
  const user = optionalUser(context);
  const { toast, clear } = await consumeToast(env, request);
  const cookieTheme = await readTheme(env, request);
  const preference = user?.themePreference ?? cookieTheme;
  const headers = new Headers();
  if (clear) headers.append("Set-Cookie", clear);
  return data(
    {
      toast,
      theme: effectiveTheme(preference, tenant?.branding.appearance),
      themePreference: preference,
      cssVars: brandingCssVars(tenant?.branding),
      tenant: tenant
        ? {
            slug: tenant.slug,
            name: tenant.name,
            // A module shows only to people who may enter it (the catalogue's entry scope).
            modules: tenant.modules
              .filter((m) => mayEnter(user, m.id))
              .map(({ id, label, route, icon }) => ({ id, label, route, icon, count: user?.moduleCounts[id] ?? 0 })),
          }
        : null,
      user: user
        ? {
            displayName: user.displayName,
            email: user.email,
            role: user.role,
            userStatus: user.userStatus,
            kind: user.kind,
            unreadNotifications: user.unreadNotifications,
            canViewUsers: can(user, "users.view"),
          }
        : null,
    },
    { headers },
  );
}

export type RootData = Awaited<ReturnType<typeof loader>>["data"];
// The shells read this data as ShellData: compiling fails here when the loader stops providing it.
type Expect<T extends true> = T;
type _RootFeedsTheShells = Expect<RootData extends ShellData ? true : false>;

export function Layout({ children }: { children: React.ReactNode }) {
  const root = useRouteLoaderData<typeof loader>("root");
  const nonce = useNonce();
  return (
    <html lang="en-GB" data-theme={root?.theme ?? "system"} style={root?.cssVars as React.CSSProperties | undefined}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links nonce={nonce} />
      </head>
      <body className="min-h-screen bg-primary-bg font-sans text-gray-900 antialiased dark:text-gray-100">
        {children}
        <Toaster toast={root?.toast ?? null} />
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
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
  let detail: React.ReactNode = <InternalErrorMessage className="mt-4 opacity-80" />;
  if (isRouteErrorResponse(error)) {
    status = error.status;
    const message = typeof error.data === "string" && error.data ? error.data : null;
    if (status === 403 && routeErrorCode(error.data) === "workspace_suspended") {
      title = "This workspace is suspended";
      detail = <p className="mt-4 opacity-80">Nobody can sign in to it while it is suspended. Please contact your administrator.</p>;
    } else if (status === 403) {
      title = "Forbidden";
      detail = <p className="mt-4 opacity-80">{message ?? "You do not have permission to view this page."}</p>;
    } else if (status === 404 && routeErrorCode(error.data) === "workspace_not_found") {
      title = "Workspace not found";
      detail = <p className="mt-4 opacity-80">There is no workspace at this address. Check the link you followed.</p>;
    } else if (status === 404) {
      title = message ?? "Page not found";
      detail = <p className="mt-4 opacity-80">The page you asked for does not exist or has moved.</p>;
    } else {
      title = `${status} ${error.statusText || "Error"}`;
      detail = <p className="mt-4 opacity-80">An unexpected error occurred. Please try again.</p>;
    }
  }
  // Server errors reach this boundary sanitised unless the request was local development
  // (workers/app.ts picks React Router's mode), so only a developer ever sees this text.
  const devDetail = import.meta.env.DEV && error instanceof Error && error.message !== "Unexpected Server Error" ? error.message : null;
  return (
    <AppShell>
      <div className="mx-auto max-w-xl px-6 py-24 text-center" data-status={status}>
        <p className="text-sm font-semibold text-accent-ink">{status}</p>
        <h1 className="mt-2 text-3xl font-bold">{title}</h1>
        {detail}
        {devDetail ? <pre className="mt-4 whitespace-pre-wrap text-left text-sm opacity-70">{devDetail}</pre> : null}
        <a href="/" className="mt-8 inline-block text-accent-ink underline">
          Go to the home page
        </a>
      </div>
    </AppShell>
  );
}
