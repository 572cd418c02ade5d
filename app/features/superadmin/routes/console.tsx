import { getFormProps, getInputProps, getSelectProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, Link } from "react-router";
import { buttonClass, SubmitButton } from "~/components/ui/button";
import { confirmThenSubmit } from "~/components/ui/confirm-then-submit";
import { Field, inputClass } from "~/components/ui/field";
import { EmptyRow, TBody, TD, TH, THead, TR, Table } from "~/components/ui/table";
import { STORAGE_TIERS } from "~/features/files";
import { formatBytes } from "~/features/files";
import { AppShell } from "~/features/platform";
import { redirectWithToast } from "~/features/platform/index.server";
import { MODULE_CATALOGUE } from "~/features/platform";
import { formatDate } from "~/utils/dates";
import { requireConsole } from "~/features/auth/index.server";
import { requireScope } from "~/features/auth/index.server";
import type { Scope } from "~/features/auth";
import {
  consoleTenants,
  createTenantWithAdmin,
  setTenantModule,
  setTenantSuspended,
  type CreateTenantError,
  type SetTenantModuleError,
  type TenantStatusError,
} from "../console.server";
import { type createTenantSchema, superadminActionSchema, superadminIntentSchema, type SuperadminIntent } from "../schemas";
import type { Route } from "./+types/console";
import type { z } from "zod";

/** What each action needs beyond system.superadmin, checked before the form is even parsed. */
const INTENT_SCOPES = {
  "create-tenant": "system.tenants.create",
  "toggle-module": "system.tenants.modules",
  suspend: "system.superadmin",
  reinstate: "system.superadmin",
} as const satisfies Record<SuperadminIntent, Scope>;

const CREATE_TENANT_ERRORS: Record<CreateTenantError, string> = {
  slug_taken: "That slug is already taken",
};

const MODULE_ERRORS: Record<SetTenantModuleError, string> = {
  tenant_not_found: "Tenant not found",
  module_not_found: "Module not found",
  module_unavailable: "That module is not available to this tenant",
};

const STATUS_ERRORS: Record<TenantStatusError, string> = {
  tenant_not_found: "Tenant not found",
  already_suspended: "That tenant is already suspended",
  not_suspended: "That tenant is not suspended",
};

const TIER_LABELS: Record<(typeof STORAGE_TIERS)[number], string> = {
  free: "Free (5 GiB)",
  starter: "Starter (50 GiB)",
  professional: "Professional (200 GiB)",
  enterprise: "Enterprise (1 TiB)",
  custom: "Custom limit",
};

export async function loader({ request, context }: Route.LoaderArgs) {
  const { env, user } = await requireConsole(request, context);
  return { tenants: await consoleTenants(env), email: user.email };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { env, user, actor: who, ip } = await requireConsole(request, context);
  const formData = await request.formData();
  const intent = superadminIntentSchema.safeParse({ intent: formData.get("intent") });
  if (!intent.success) throw data("Unknown action", { status: 400 });
  await requireScope(request, context, user, INTENT_SCOPES[intent.data.intent]);

  const submission = parseWithZod(formData, { schema: superadminActionSchema });
  if (submission.status !== "success") {
    if (intent.data.intent === "create-tenant") return data({ result: submission.reply(), confirm: null }, { status: 400 });
    throw data("Invalid request", { status: 400 });
  }
  const actor = { ...who, ip };
  const input = submission.value;
  switch (input.intent) {
    case "create-tenant": {
      const created = await createTenantWithAdmin(env, input, actor);
      if (!created.ok)
        return data({ result: submission.reply({ fieldErrors: { slug: [CREATE_TENANT_ERRORS[created.code]] } }), confirm: null }, { status: 400 });
      if (created.invite !== "sent")
        return redirectWithToast(env, "/superadmin", {
          type: "warning",
          title: "Tenant created, invitation not sent",
          message: `${input.name} is ready at ${input.slug}.${env.APP_DOMAIN}, but ${input.adminEmail} could not be invited.`,
        });
      return redirectWithToast(env, "/superadmin", {
        type: "success",
        title: "Tenant created",
        message: `${input.name} is ready at ${input.slug}.${env.APP_DOMAIN}; an invitation went to ${input.adminEmail}.`,
      });
    }
    case "toggle-module": {
      const res = await setTenantModule(env, input, actor);
      if (!res.ok) return redirectWithToast(env, "/superadmin", { type: "error", title: "Module not changed", message: MODULE_ERRORS[res.code] });
      return redirectWithToast(env, "/superadmin", { type: "success", title: input.enabled ? "Module enabled" : "Module disabled" });
    }
    case "suspend":
    case "reinstate": {
      // Without JavaScript the first post only asks; the confirmed one acts.
      if (input.confirmed !== "yes") return data({ result: null, confirm: { intent: input.intent, tenantId: input.tenantId } });
      const res = await setTenantSuspended(env, input.tenantId, input.intent === "suspend", actor);
      if (!res.ok) return redirectWithToast(env, "/superadmin", { type: "error", title: "Tenant not changed", message: STATUS_ERRORS[res.code] });
      return redirectWithToast(env, "/superadmin", {
        type: "success",
        title: input.intent === "suspend" ? "Tenant suspended" : "Tenant reinstated",
        message: input.intent === "suspend" ? `${res.name}: its sessions have ended and nobody can sign in.` : `${res.name} can sign in again.`,
      });
    }
  }
}

/** A custom limit as it was entered: whole GiB. */
function gib(bytes: number | null): string {
  return bytes === null ? "N/A" : `${(bytes / 1024 ** 3).toLocaleString("en-GB", { maximumFractionDigits: 1 })} GiB`;
}

function suspendQuestion(intent: "suspend" | "reinstate", name: string): string {
  return intent === "suspend"
    ? `Suspend ${name}? Everyone is signed out at once and nobody can sign in until it is reinstated.`
    : `Reinstate ${name}? Its people can sign in again.`;
}

export default function SuperAdmin({ loaderData, actionData }: Route.ComponentProps) {
  const confirm = actionData?.confirm ?? null;
  const confirmTenant = confirm ? loaderData.tenants.find((t) => t.id === confirm.tenantId) : undefined;
  return (
    <AppShell>
      <div className="mx-auto max-w-7xl px-6 py-10">
        <div className="flex flex-wrap items-baseline justify-between gap-4">
          <div>
            <h1 className="text-2xl font-bold">Platform administration</h1>
            <p className="text-sm opacity-70">Signed in as {loaderData.email}</p>
          </div>
          <Link to="/superadmin/audit" className={buttonClass("secondary")}>
            Platform audit log
          </Link>
        </div>
        {confirm && confirmTenant ? <ConfirmStatus confirm={confirm} tenant={confirmTenant} /> : null}
        <CreateTenant actionData={actionData} />
        <section className="mt-8" aria-labelledby="tenants-heading">
          <h2 id="tenants-heading" className="text-lg font-semibold">
            Tenants ({loaderData.tenants.length})
          </h2>
          <Table caption="Tenants, their modules, storage, people and status" scrollClassName="mt-4 overflow-x-auto">
            <THead>
              <TH>Tenant</TH>
              <TH>Status</TH>
              <TH>Modules</TH>
              <TH>Storage</TH>
              <TH>Users</TH>
              <TH>Created</TH>
              <TH>Actions</TH>
            </THead>
            <TBody>
              {loaderData.tenants.length === 0 ? <EmptyRow colSpan={7}>No tenants yet.</EmptyRow> : null}
              {loaderData.tenants.map((t) => (
                <TenantRow key={t.id} t={t} />
              ))}
            </TBody>
          </Table>
        </section>
      </div>
    </AppShell>
  );
}

type Data = Route.ComponentProps["loaderData"];
type Confirm = NonNullable<NonNullable<Route.ComponentProps["actionData"]>["confirm"]>;

/** The no-JavaScript confirmation of a suspension or reinstatement. */
function ConfirmStatus({ confirm, tenant: confirmTenant }: { confirm: Confirm; tenant: Data["tenants"][number] }) {
  return (
    <section role="alertdialog" aria-labelledby="confirm-heading" className="mt-8 rounded-brand border border-danger bg-elevated p-6">
      <h2 id="confirm-heading" className="text-lg font-semibold">
        {confirm.intent === "suspend" ? `Suspend ${confirmTenant.name}?` : `Reinstate ${confirmTenant.name}?`}
      </h2>
      <p className="mt-2 text-sm">{suspendQuestion(confirm.intent, confirmTenant.name)}</p>
      <Form method="post" className="mt-4 flex gap-3">
        <input type="hidden" name="intent" value={confirm.intent} />
        <input type="hidden" name="tenantId" value={confirmTenant.id} />
        <input type="hidden" name="confirmed" value="yes" />
        <SubmitButton variant={confirm.intent === "suspend" ? "danger" : "primary"} pendingText="Saving..." match={{ intent: confirm.intent }}>
          {confirm.intent === "suspend" ? "Yes, suspend" : "Yes, reinstate"}
        </SubmitButton>
        <Link to="/superadmin" className={buttonClass("secondary")}>
          Cancel
        </Link>
      </Form>
    </section>
  );
}

/** The form that creates a tenant with its first admin. */
function CreateTenant({ actionData }: { actionData: Route.ComponentProps["actionData"] }) {
  const [form, fields] = useForm<z.input<typeof createTenantSchema>>({
    lastResult: actionData?.result,
  });
  return (
    <section className="mt-8 rounded-brand border border-line bg-elevated p-6" aria-labelledby="create-heading">
      <h2 id="create-heading" className="text-lg font-semibold">
        Create a tenant
      </h2>
      <Form method="post" {...getFormProps(form)} className="mt-4 grid gap-4 sm:grid-cols-2">
        <input type="hidden" name="intent" value="create-tenant" />
        <Field id={fields.slug.id} label="Slug (subdomain)" error={fields.slug.errors}>
          <input {...getInputProps(fields.slug, { type: "text" })} key={fields.slug.key} className={inputClass} placeholder="e.g. initech" />
        </Field>
        <Field id={fields.name.id} label="Name" error={fields.name.errors}>
          <input {...getInputProps(fields.name, { type: "text" })} key={fields.name.key} className={inputClass} placeholder="e.g. Initech Builders Ltd" />
        </Field>
        <ModuleChoice field={fields.availableModules} />
        <Field id={fields.storageTier.id} label="Storage tier" error={fields.storageTier.errors}>
          <select
            {...getSelectProps(fields.storageTier)}
            key={fields.storageTier.key}
            defaultValue={fields.storageTier.initialValue ?? "free"}
            className={inputClass}
          >
            {STORAGE_TIERS.map((tier) => (
              <option key={tier} value={tier}>
                {TIER_LABELS[tier]}
              </option>
            ))}
          </select>
        </Field>
        <Field id={fields.customLimitGib.id} label="Custom limit (GiB)" hint="Only with the custom tier." error={fields.customLimitGib.errors}>
          <input
            {...getInputProps(fields.customLimitGib, { type: "number", ariaDescribedBy: fields.customLimitGib.descriptionId })}
            key={fields.customLimitGib.key}
            className={inputClass}
            min={1}
            step={1}
          />
        </Field>
        <Field
          id={fields.adminEmail.id}
          label="First admin's email"
          hint="They get an e-mail with a link to set their password."
          error={fields.adminEmail.errors}
        >
          <input
            {...getInputProps(fields.adminEmail, { type: "email", ariaDescribedBy: fields.adminEmail.descriptionId })}
            key={fields.adminEmail.key}
            className={inputClass}
            autoComplete="off"
          />
        </Field>
        <div className="sm:col-span-2">
          <SubmitButton pendingText="Creating..." match={{ intent: "create-tenant" }}>
            Create tenant
          </SubmitButton>
        </div>
      </Form>
    </section>
  );
}

/** The modules a new tenant may switch on, as checkboxes keeping what was ticked. */
function ModuleChoice({ field }: { field: { id: string; name: string; key: string | undefined; errors?: string[]; initialValue?: unknown } }) {
  const ticked = new Set([field.initialValue ?? []].flat().filter((v): v is string => typeof v === "string"));
  return (
    <fieldset className="sm:col-span-2" aria-describedby={field.errors ? `${field.id}-error` : undefined}>
      <legend className="text-sm font-medium">Available modules</legend>
      <div className="mt-2 flex flex-wrap gap-4">
        {MODULE_CATALOGUE.map((m) => (
          <label key={m.id} className="flex items-center gap-2 text-sm">
            <input type="checkbox" name={field.name} value={m.id} defaultChecked={ticked.has(m.id)} key={`${field.key}-${m.id}`} />
            {m.label}
          </label>
        ))}
      </div>
      {field.errors ? (
        <p id={`${field.id}-error`} className="text-sm text-danger" role="alert">
          {field.errors[0]}
        </p>
      ) : null}
    </fieldset>
  );
}

/** One tenant: status, module switches, storage, people and the suspend or reinstate button. */
function TenantRow({ t }: { t: Data["tenants"][number] }) {
  const next = t.status === "active" ? "suspend" : "reinstate";
  return (
    <TR data-tenant={t.slug}>
      <TD>
        <div className="font-medium">{t.name}</div>
        <div className="text-xs opacity-70">{t.slug}</div>
      </TD>
      <TD>
        <span data-status={t.status} className={t.status === "active" ? "text-success" : "font-semibold text-danger"}>
          {t.status === "active" ? "Active" : "Suspended"}
        </span>
        {t.suspendedAt ? <div className="text-xs opacity-70">since {formatDate(t.suspendedAt)}</div> : null}
      </TD>
      <TD>
        <div className="flex flex-wrap gap-2">
          {t.modules.map((m) => (
            <Form method="post" key={m.id}>
              <input type="hidden" name="intent" value="toggle-module" />
              <input type="hidden" name="tenantId" value={t.id} />
              <input type="hidden" name="moduleId" value={m.id} />
              <input type="hidden" name="enabled" value={m.enabled ? "false" : "true"} />
              <button
                type="submit"
                disabled={!m.available}
                aria-pressed={m.enabled}
                title={m.available ? (m.enabled ? `Disable ${m.label}` : `Enable ${m.label}`) : `${m.label} is not available to this tenant`}
                className="rounded-full border border-line px-3 py-1 text-xs aria-pressed:bg-accent aria-pressed:text-accent-foreground disabled:opacity-40"
              >
                {m.label}: {m.enabled ? "on" : "off"}
              </button>
            </Form>
          ))}
        </div>
      </TD>
      <TD>
        <div>{t.storage.tier === "custom" ? `Custom: ${gib(t.storage.customLimit)}` : TIER_LABELS[t.storage.tier]}</div>
        <div className="text-xs opacity-70">{formatBytes(t.storage.usedBytes)} used</div>
      </TD>
      <TD>{t.users}</TD>
      <TD>{formatDate(t.createdAt)}</TD>
      <TD>
        <Form method="post" onSubmit={confirmThenSubmit(() => suspendQuestion(next, t.name))}>
          <input type="hidden" name="intent" value={next} />
          <input type="hidden" name="tenantId" value={t.id} />
          <input type="hidden" name="confirmed" value="" />
          <SubmitButton variant={next === "suspend" ? "danger" : "secondary"} pendingText="Saving..." match={{ intent: next, tenantId: t.id }}>
            {next === "suspend" ? `Suspend ${t.slug}` : `Reinstate ${t.slug}`}
          </SubmitButton>
        </Form>
      </TD>
    </TR>
  );
}

export function meta() {
  return [{ title: "Platform administration" }];
}
