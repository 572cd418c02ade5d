import { Link } from "react-router";
import { can } from "~/features/auth";
import { requireTenant, requireUser } from "~/features/auth/index.server";
import { AppShell } from "~/features/platform";
import type { Route } from "./+types/welcome";

export function loader({ request, context }: Route.LoaderArgs) {
  const tenant = requireTenant(context);
  const user = requireUser(request, context);
  return {
    tenantName: tenant.name,
    displayName: user.displayName,
    moduleCount: tenant.modules.length,
    // Whoever may switch modules on is told where; everyone else, who to ask.
    canSwitchModules: can(user, "modules.edit"),
    modules: tenant.modules.map((m) => ({ label: m.label, route: m.route })),
  };
}

export default function Welcome({ loaderData }: Route.ComponentProps) {
  return (
    <AppShell>
      <div className="mx-auto max-w-3xl px-6 py-16">
        <h1 className="text-3xl font-bold">{`Welcome to ${loaderData.tenantName}`}</h1>
        <p className="mt-2 opacity-80">{`Signed in as ${loaderData.displayName}.`}</p>
        {loaderData.moduleCount === 0 ? (
          <div className="mt-8 rounded-brand border border-line bg-elevated p-6">
            <h2 className="font-semibold">No modules are switched on yet</h2>
            {loaderData.canSwitchModules ? (
              <p className="mt-2 text-sm">
                {/* The link keeps full opacity: dimming it with the sentence would lower its contrast. */}
                <span className="opacity-80">Modules such as CIS and Files are switched on in your workspace settings.</span>{" "}
                <Link to="/settings/modules" className="font-medium text-accent-ink underline">
                  Switch modules on
                </Link>
              </p>
            ) : (
              <p className="mt-2 text-sm opacity-80">
                Your workspace administrator can enable modules such as CIS and Files. Until then this Welcome page is your home.
              </p>
            )}
          </div>
        ) : (
          <ul className="mt-8 grid gap-3 sm:grid-cols-2">
            {loaderData.modules.map((m) => (
              <li key={m.route}>
                <a href={m.route} className="block rounded-brand border border-line bg-elevated p-4 hover:border-accent">
                  {m.label}
                </a>
              </li>
            ))}
          </ul>
        )}
      </div>
    </AppShell>
  );
}

export function meta() {
  return [{ title: "Welcome" }];
}
