import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form } from "react-router";
import { SubmitButton } from "~/components/ui/button";
import { Field, inputClass } from "~/components/ui/field";
import { EmptyRow, TBody, TD, TH, THead, TR, Table } from "~/components/ui/table";
import { cloudflareContext, tenantContext } from "~/context";
import { clientIp } from "~/features/platform/audit.server";
import { AppShell } from "~/features/platform/components/app-shell";
import { redirectWithToast } from "~/features/platform/flash.server";
import { formatDate } from "~/utils/dates";
import { requireScope, requireUser } from "../middleware.server";
import type { Scope } from "../scopes";
import { createTenantSchema, superadminActionSchema, superadminIntentSchema, type SuperadminIntent } from "../schemas";
import { createTenant, listTenantsWithModules, setTenantModule, type CreateTenantError, type SetTenantModuleError } from "../superadmin.server";
import type { Route } from "./+types/superadmin";

/** What each action needs beyond system.superadmin, checked before the form is even parsed. */
const INTENT_SCOPES = {
  "create-tenant": "system.tenants.create",
  "toggle-module": "system.tenants.modules",
} as const satisfies Record<SuperadminIntent, Scope>;

const CREATE_TENANT_ERRORS: Record<CreateTenantError, string> = {
  slug_taken: "That slug is already taken",
};

const MODULE_ERRORS: Record<SetTenantModuleError, string> = {
  tenant_not_found: "Tenant not found",
  module_not_found: "Module not found",
  module_unavailable: "That module is not available to this tenant",
};

async function guard(request: Request, context: Route.LoaderArgs["context"]) {
  // The console lives on the bare domain only.
  if (context.get(tenantContext)) throw data("Page not found", { status: 404 });
  const user = requireUser(request, context);
  await requireScope(request, context, user, "system.superadmin");
  return user;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { env } = context.get(cloudflareContext);
  const user = await guard(request, context);
  return { tenants: await listTenantsWithModules(env), email: user.email };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { env } = context.get(cloudflareContext);
  const user = await guard(request, context);
  const formData = await request.formData();
  const intent = superadminIntentSchema.safeParse({ intent: formData.get("intent") });
  if (!intent.success) throw data("Unknown action", { status: 400 });
  await requireScope(request, context, user, INTENT_SCOPES[intent.data.intent]);

  const submission = parseWithZod(formData, { schema: superadminActionSchema });
  if (submission.status !== "success") {
    if (intent.data.intent === "create-tenant") return data({ result: submission.reply() }, { status: 400 });
    throw data("Invalid request", { status: 400 });
  }
  const actor = { id: user.id, email: user.email, ip: clientIp(request) };
  const input = submission.value;
  switch (input.intent) {
    case "create-tenant": {
      const created = await createTenant(env, input, actor);
      if (!created.ok) return data({ result: submission.reply({ fieldErrors: { slug: [CREATE_TENANT_ERRORS[created.code]] } }) }, { status: 400 });
      return redirectWithToast(env, "/superadmin", {
        type: "success",
        title: "Tenant created",
        message: `${input.name} is ready at ${input.slug}.${env.APP_DOMAIN}`,
      });
    }
    case "toggle-module": {
      const res = await setTenantModule(env, input, actor);
      if (!res.ok) return redirectWithToast(env, "/superadmin", { type: "error", title: "Module not changed", message: MODULE_ERRORS[res.code] });
      return redirectWithToast(env, "/superadmin", { type: "success", title: input.enabled ? "Module enabled" : "Module disabled" });
    }
  }
}

export default function SuperAdmin({ loaderData, actionData }: Route.ComponentProps) {
  const [form, fields] = useForm({
    lastResult: actionData?.result,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: createTenantSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <AppShell>
      <main className="mx-auto max-w-6xl px-6 py-10">
        <h1 className="text-2xl font-bold">Platform administration</h1>
        <p className="text-sm opacity-70">Signed in as {loaderData.email}</p>

        <section className="mt-8 rounded-brand border border-line bg-elevated p-6" aria-labelledby="create-heading">
          <h2 id="create-heading" className="text-lg font-semibold">
            Create a tenant
          </h2>
          <Form method="post" {...getFormProps(form)} className="mt-4 grid gap-4 sm:grid-cols-[1fr_1fr_auto] sm:items-end">
            <input type="hidden" name="intent" value="create-tenant" />
            <Field id={fields.slug.id} label="Slug (subdomain)" error={fields.slug.errors}>
              <input {...getInputProps(fields.slug, { type: "text" })} key={fields.slug.key} className={inputClass} placeholder="e.g. initech" />
            </Field>
            <Field id={fields.name.id} label="Name" error={fields.name.errors}>
              <input {...getInputProps(fields.name, { type: "text" })} key={fields.name.key} className={inputClass} placeholder="e.g. Initech Builders Ltd" />
            </Field>
            <SubmitButton pendingText="Creating..." match={{ intent: "create-tenant" }}>
              Create tenant
            </SubmitButton>
          </Form>
        </section>

        <section className="mt-8" aria-labelledby="tenants-heading">
          <h2 id="tenants-heading" className="text-lg font-semibold">
            Tenants ({loaderData.tenants.length})
          </h2>
          <Table caption="Tenants and their modules" scrollClassName="mt-4 overflow-x-auto">
            <THead>
              <TH>Tenant</TH>
              <TH>Created</TH>
              <TH>Modules</TH>
            </THead>
            <TBody>
              {loaderData.tenants.length === 0 ? <EmptyRow colSpan={3}>No tenants yet.</EmptyRow> : null}
              {loaderData.tenants.map((t) => (
                <TR key={t.id} data-tenant={t.slug}>
                  <TD>
                    <div className="font-medium">{t.name}</div>
                    <div className="text-xs opacity-70">{t.slug}</div>
                  </TD>
                  <TD>{formatDate(t.createdAt)}</TD>
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
                </TR>
              ))}
            </TBody>
          </Table>
        </section>
      </main>
    </AppShell>
  );
}

export function meta() {
  return [{ title: "Platform administration" }];
}
