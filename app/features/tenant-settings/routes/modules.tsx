import { data, Form } from "react-router";
import { SubmitButton } from "~/components/ui/button";
import { TBody, TD, TH, THead, TR, Table } from "~/components/ui/table";
import { cloudflareContext } from "~/context";
import { actorOf } from "~/features/auth";
import { requireTenant, requireUserWithScope } from "~/features/auth/index.server";
import { clientIp } from "~/features/platform/index.server";
import { AppShell } from "~/features/platform";
import { redirectWithToast } from "~/features/platform/index.server";
import { SettingsNav } from "../components/settings-nav";
import { moduleToggleSchema } from "../schemas";
import { setModuleEnabled, tenantModuleSettings, type SetModuleError } from "../settings.server";
import type { Route } from "./+types/modules";

const MODULE_ERRORS: Record<SetModuleError, string> = {
  module_not_found: "That module does not exist",
  module_unavailable: "That module is not available to your workspace",
};

export async function loader({ request, context }: Route.LoaderArgs) {
  const { env } = context.get(cloudflareContext);
  const tenant = requireTenant(context);
  await requireUserWithScope(request, context, "modules.edit");
  const rows = await tenantModuleSettings(env, tenant.id);
  const available = tenant.availableModules;
  return {
    modules: rows.map((m) => ({
      id: m.id,
      label: m.label,
      route: m.route,
      available: !available || available.includes(m.id),
      // A module on but no longer available counts as off, as the shell shows it.
      enabled: Boolean(m.enabled) && (!available || available.includes(m.id)),
    })),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { env } = context.get(cloudflareContext);
  const tenant = requireTenant(context);
  const user = await requireUserWithScope(request, context, "modules.edit");
  const parsed = moduleToggleSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) throw data("Invalid request", { status: 400 });
  const { moduleId, enabled } = parsed.data;
  const res = await setModuleEnabled(env, tenant.id, tenant.availableModules, moduleId, enabled, { ...actorOf(user), ip: clientIp(request) });
  if (!res.ok) return redirectWithToast(env, "/settings/modules", { type: "error", title: "Module not changed", message: MODULE_ERRORS[res.code] });
  return redirectWithToast(env, "/settings/modules", { type: "success", title: enabled ? `${res.label} switched on` : `${res.label} switched off` });
}

export default function ModuleSettings({ loaderData }: Route.ComponentProps) {
  return (
    <AppShell>
      <div className="mx-auto max-w-5xl px-6 py-10">
        <h1 className="text-2xl font-bold">Modules</h1>
        <SettingsNav />
        <Table caption="Modules of your workspace" scrollClassName="mt-6 overflow-x-auto">
          <THead>
            <TH>Module</TH>
            <TH>Status</TH>
            <TH>Change</TH>
          </THead>
          <TBody>
            {loaderData.modules.map((m) => (
              <TR key={m.id} data-module={m.id}>
                <TD className="font-medium">{m.label}</TD>
                <TD>{m.available ? (m.enabled ? "On" : "Off") : "Not available to your workspace"}</TD>
                <TD>
                  {m.available ? (
                    <Form method="post">
                      <input type="hidden" name="moduleId" value={m.id} />
                      <input type="hidden" name="enabled" value={m.enabled ? "false" : "true"} />
                      <SubmitButton variant={m.enabled ? "secondary" : "primary"} pendingText="Saving..." match={{ moduleId: m.id }}>
                        {m.enabled ? `Switch off ${m.label}` : `Switch on ${m.label}`}
                      </SubmitButton>
                    </Form>
                  ) : null}
                </TD>
              </TR>
            ))}
          </TBody>
        </Table>
      </div>
    </AppShell>
  );
}

export function meta() {
  return [{ title: "Modules" }];
}
