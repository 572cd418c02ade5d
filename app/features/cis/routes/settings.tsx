import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, isRouteErrorResponse } from "react-router";
import { requireScope } from "~/features/auth/index.server";
import { can } from "~/features/auth";
import { clientIp } from "~/features/platform/index.server";
import { redirectWithToast } from "~/features/platform/index.server";
import { SettingsForm } from "../settings/components/settings-form";
import { GatewayCredentialsPanel } from "../hmrc/components/gateway-credentials";
import { clearGatewayCredentials, saveGatewayCredentials } from "../hmrc/credentials.server";
import { gatewayCredentialsSchema, type GatewayFormErrors } from "../hmrc/gateway-credentials-schema";
import { RolePermissions, ScopeChecklistPanel } from "../settings/components/settings-role-permissions";
import { CIS_SCOPE_INFO, CIS_SCOPES, isCisScope } from "../domain/scopes";
import { makeSettingsSchema } from "../domain/schemas";
import { requireModule } from "~/features/auth/index.server";
import { ENCRYPT_FAILED } from "../pii.server";
import { scopeChecklist, updateBundleCisScopes } from "../settings/role-bundles.server";
import { getCisSettings, getSettingsScreen, saveCisSettings } from "../settings/settings.server";
import { settingsIntentSchema } from "../settings/schemas";
import type { Route } from "./+types/settings";

export const NO_SETTINGS_PERMISSION = "You don't have permission to manage CIS settings";
export const NO_BUNDLE_PERMISSION = "You don't have permission to change CIS role permissions (cis.manage is required)";
export const NO_GATEWAY_PERMISSION = "You don't have permission to change the Government Gateway credentials (cis.manage is required)";
const SAVE_FAILED = "Failed to save settings";
const BUNDLE_CHANGED = "This role was changed by someone else since the page was loaded. Review it and try again.";
const LAST_MANAGER = "At least one role must keep cis.manage, or nobody could change CIS permissions again.";

// Settings need cis.settings.write or cis.manage; changing role bundles needs cis.manage.
const SETTINGS_SCOPES = ["cis.settings.write", "cis.manage"] as const;

export async function loader({ request, context }: Route.LoaderArgs) {
  const { env, tenant, user } = await requireModule(request, context, { module: "cis" });
  await requireScope(request, context, user, SETTINGS_SCOPES, NO_SETTINGS_PERMISSION);
  const { settings, bundles } = await getSettingsScreen(env, tenant.id);
  return {
    settings,
    bundles,
    checklist: scopeChecklist(bundles),
    canEditBundles: can(user, "cis.manage"),
    allScopes: CIS_SCOPES.map((id) => ({ id, ...CIS_SCOPE_INFO[id] })),
  };
}

type ActionData = {
  result?: SubmissionResult<string[]>;
  bundleError?: { name: string; message: string };
  gatewayErrors?: GatewayFormErrors;
  gatewaySenderId?: string;
};

export async function action({ request, context }: Route.ActionArgs) {
  const { env, tenant, user } = await requireModule(request, context, { module: "cis" });
  await requireScope(request, context, user, SETTINGS_SCOPES, NO_SETTINGS_PERMISSION);
  const formData = await request.formData();
  const actor = { id: user.id, email: user.email, name: user.displayName, ip: clientIp(request) };
  const intent = formData.get("intent");
  if (intent === "gateway" || intent === "gateway-clear") {
    await requireScope(request, context, user, "cis.manage", NO_GATEWAY_PERMISSION);
    const gateway = gatewayCredentialsSchema.safeParse({
      intent,
      senderId: formData.get("senderId") ?? undefined,
      password: formData.get("password") ?? undefined,
    });
    if (!gateway.success) {
      const errors: GatewayFormErrors = {};
      for (const issue of gateway.error.issues) {
        const field = issue.path[0];
        if ((field === "senderId" || field === "password") && !errors[field]) errors[field] = issue.message;
      }
      const senderId = formData.get("senderId");
      return data<ActionData>({ gatewayErrors: errors, gatewaySenderId: typeof senderId === "string" ? senderId : "" }, { status: 400 });
    }
    if (gateway.data.intent === "gateway-clear") {
      await clearGatewayCredentials(env, tenant.id, actor);
      return redirectWithToast(env, "/cis/settings", {
        type: "success",
        title: "Credentials Cleared",
        message: "The Government Gateway credentials have been removed.",
      });
    }
    const saved = await saveGatewayCredentials(env, tenant.id, { senderId: gateway.data.senderId, password: gateway.data.password }, actor);
    if (!saved.ok) {
      const form = saved.code === "settings_missing" ? "Save your CIS settings first, then add the Government Gateway credentials." : ENCRYPT_FAILED;
      return data<ActionData>({ gatewayErrors: { form }, gatewaySenderId: gateway.data.senderId }, { status: saved.code === "settings_missing" ? 400 : 500 });
    }
    return redirectWithToast(env, "/cis/settings", {
      type: "success",
      title: "Credentials Saved",
      message: "Your Government Gateway credentials have been saved.",
    });
  }
  const parsed = settingsIntentSchema.safeParse(
    intent === "bundle"
      ? { intent, bundle: formData.get("bundle"), version: formData.get("version") || undefined, scopes: formData.getAll("scopes") }
      : { intent },
  );
  if (!parsed.success) throw data(intent === "bundle" ? "Invalid role permissions form" : "Unknown action", { status: 400 });
  const posted = parsed.data;

  if (posted.intent === "bundle") {
    await requireScope(request, context, user, "cis.manage", NO_BUNDLE_PERMISSION);
    const { bundle, version, scopes } = posted;
    const unknown = scopes.filter((s) => !isCisScope(s));
    if (unknown.length) return data<ActionData>({ bundleError: { name: bundle, message: `Unknown CIS scope: ${unknown.join(", ")}` } }, { status: 400 });
    const res = await updateBundleCisScopes(env, tenant.id, bundle, scopes.filter(isCisScope), version ?? null, actor);
    if (!res.ok) {
      if (res.code === "not_found") throw data("Not found", { status: 404 });
      const [message, status] = res.code === "stale" ? [BUNDLE_CHANGED, 409] : [LAST_MANAGER, 400];
      return data<ActionData>({ bundleError: { name: bundle, message } }, { status });
    }
    return redirectWithToast(env, "/cis/settings", {
      type: "success",
      title: "Permissions Updated",
      message: `CIS permissions of the ${bundle} role have been saved.`,
    });
  }

  // The stored UTR decides whether a blank UTR may activate the module.
  const current = await getCisSettings(env, tenant.id);
  const submission = parseWithZod(formData, { schema: makeSettingsSchema({ hasStoredUtr: current.hasUtr }) });
  if (submission.status !== "success") return data<ActionData>({ result: submission.reply() }, { status: 400 });
  const saved = await saveCisSettings(env, tenant.id, submission.value, actor);
  if (!saved.ok)
    return data<ActionData>({ result: submission.reply({ formErrors: [saved.code === "encrypt_failed" ? ENCRYPT_FAILED : SAVE_FAILED] }) }, { status: 500 });
  return redirectWithToast(env, "/cis/settings", { type: "success", title: "Settings Saved", message: "Your CIS settings have been saved successfully." });
}

export default function CisSettings({ loaderData, actionData }: Route.ComponentProps) {
  const { settings, bundles, checklist, canEditBundles, allScopes } = loaderData;
  const ad = actionData;
  return (
    <div className="space-y-6">
      <div>
        <h2 className="text-2xl font-bold">CIS Settings</h2>
        <p className="opacity-70">Configure your Construction Industry Scheme settings</p>
      </div>
      {settings.fellBack ? (
        <p role="alert" className="rounded-brand border border-amber-500 bg-amber-500/10 p-4 text-sm">
          Your saved settings could not be loaded, so the defaults are shown. Saving will replace the stored settings.
        </p>
      ) : null}
      {/* Remount after each save so the form starts from what is stored now. */}
      <SettingsForm key={settings.updatedAt ?? "new"} settings={settings} lastResult={ad?.result ?? null} />
      {canEditBundles ? (
        <GatewayCredentialsPanel
          isSet={settings.gatewayCredentials}
          changedAt={settings.gatewayCredentialsChangedAt}
          errors={ad?.gatewayErrors ?? null}
          senderId={ad?.gatewaySenderId ?? ""}
        />
      ) : null}
      <RolePermissions bundles={bundles} allScopes={allScopes} canEdit={canEditBundles} bundleError={ad?.bundleError ?? null}>
        <ScopeChecklistPanel checklist={checklist} />
      </RolePermissions>
    </div>
  );
}

export function meta() {
  return [{ title: "CIS Settings" }];
}

/** A refusal shows its own message inside the CIS layout, with the 403 status. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const message = isRouteErrorResponse(error) && typeof error.data === "string" && error.data ? error.data : "Failed to load settings";
  return (
    <div role="alert" data-status={status} className="rounded-brand border border-danger bg-danger/10 p-6">
      <h2 className="text-lg font-semibold">{status === 403 ? "Permission required" : status === 404 ? "Not found" : "Something went wrong"}</h2>
      <p className="mt-2">{status >= 500 ? "Failed to load settings" : message}</p>
    </div>
  );
}
