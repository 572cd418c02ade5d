import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useState, type CSSProperties } from "react";
import { data, Form } from "react-router";
import { SubmitButton } from "~/components/ui/button";
import { Field, inputClass } from "~/components/ui/field";
import { cloudflareContext } from "~/context";
import { actorOf } from "~/features/auth";
import { requireTenant, requireUserWithScope } from "~/features/auth/index.server";
import { clientIp } from "~/features/platform/index.server";
import {
  accentAsText,
  BRAND_APPEARANCES,
  BRAND_FONT_IDS,
  BRAND_FONTS,
  BRAND_RADII,
  DEFAULT_BRANDING,
  fontStack,
  hexToHsl,
  HEX_COLOUR_RE,
  hslToHex,
  readableOn,
} from "~/features/platform";
import { AppShell } from "~/features/platform";
import { redirectWithToast } from "~/features/platform/index.server";
import { SettingsNav } from "../components/settings-nav";
import { APPEARANCE_LABELS, lookFromForm, oneOf, RADIUS_LABELS, type BrandingLook } from "../labels";
import { brandingSchema, type BrandingInput } from "../schemas";
import { removeLogo, saveBranding, saveLogo } from "../settings.server";
import { LOGO_ERROR_MESSAGES, LOGO_MAX_BYTES } from "../logo";
import type { Route } from "./+types/branding";

export async function loader({ request, context }: Route.LoaderArgs) {
  const tenant = requireTenant(context);
  await requireUserWithScope(request, context, "branding.edit");
  const b = tenant.branding;
  // The saved choices, or the defaults for what the tenant never set (the tenant came with the session's batch).
  const saved: BrandingInput = {
    accentColor: b.accentColor && HEX_COLOUR_RE.test(b.accentColor) ? b.accentColor : hslToHex(b.accentHsl ?? DEFAULT_BRANDING.accentHsl).toUpperCase(),
    radius: oneOf(BRAND_RADII, b.radius) ?? "0.5rem",
    appearance: oneOf(BRAND_APPEARANCES, b.appearance) ?? "auto",
    fontFamily: oneOf(BRAND_FONT_IDS, b.fontFamily) ?? "Inter",
    address: b.address ?? "",
  };
  // What the page says about the logo: its kind and size, never its storage key.
  const logo = b.logo ? { type: b.logo.type === "image/png" ? "PNG" : "JPEG", kb: Math.max(1, Math.round(b.logo.bytes / 1024)) } : null;
  return { saved, logo, tenantName: tenant.name };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { env } = context.get(cloudflareContext);
  const tenant = requireTenant(context);
  const user = await requireUserWithScope(request, context, "branding.edit");
  const actor = { ...actorOf(user), ip: clientIp(request) };
  // A logo larger than the limit is refused before its body is read.
  if (Number(request.headers.get("Content-Length") ?? 0) > LOGO_MAX_BYTES + 64 * 1024)
    return data({ result: null, logoError: LOGO_ERROR_MESSAGES.logo_too_large }, { status: 413 });
  const formData = await request.formData();
  const intent = formData.get("intent");
  if (intent === "logo") {
    const file = formData.get("logo");
    const bytes = file instanceof File ? new Uint8Array(await file.arrayBuffer()) : new Uint8Array();
    const saved = await saveLogo(env, tenant.id, tenant.branding, bytes, actor);
    if (!saved.ok) return data({ result: null, logoError: LOGO_ERROR_MESSAGES[saved.code] }, { status: 400 });
    return redirectWithToast(env, "/settings/branding", { type: "success", title: "Logo saved", message: "New statements carry it." });
  }
  if (intent === "remove-logo") {
    await removeLogo(env, tenant.id, tenant.branding, actor);
    return redirectWithToast(env, "/settings/branding", { type: "success", title: "Logo removed", message: "New statements are printed without a logo." });
  }
  const submission = parseWithZod(formData, { schema: brandingSchema });
  if (submission.status !== "success") return data({ result: submission.reply(), logoError: null }, { status: 400 });
  await saveBranding(env, tenant.id, tenant.branding, submission.value, actor);
  return redirectWithToast(env, "/settings/branding", { type: "success", title: "Branding saved", message: "Your workspace now uses it." });
}

/** The logo printed on statements: a separate form, as it uploads a file. */
function LogoForm({ logo, error }: { logo: { type: string; kb: number } | null; error: string | null }) {
  return (
    <section aria-labelledby="logo-heading" className="space-y-3 rounded-brand border border-line p-4">
      <h2 id="logo-heading" className="text-lg font-semibold">
        Logo on documents
      </h2>
      <p className="text-sm opacity-80" data-testid="logo-status">
        {logo ? `A ${logo.type} logo (${logo.kb} KB) is printed on new statements.` : "No logo: statements are printed without one."}
      </p>
      <Form method="post" encType="multipart/form-data" className="space-y-3">
        <input type="hidden" name="intent" value="logo" />
        <Field id="branding-logo" label="Logo file" hint="PNG or JPEG, up to 512 KB." error={error ? [error] : undefined}>
          <input
            id="branding-logo"
            name="logo"
            type="file"
            accept="image/png,image/jpeg"
            aria-describedby={error ? "branding-logo-error branding-logo-description" : "branding-logo-description"}
            aria-invalid={error ? true : undefined}
            className="block text-sm"
          />
        </Field>
        <SubmitButton variant="secondary" pendingText="Uploading...">
          Upload logo
        </SubmitButton>
      </Form>
      {logo ? (
        <Form method="post">
          <input type="hidden" name="intent" value="remove-logo" />
          <SubmitButton variant="secondary" pendingText="Removing...">
            Remove logo
          </SubmitButton>
        </Form>
      ) : null}
    </section>
  );
}

/** A sample of the shell in the chosen branding: the server draws the saved one, the script follows the form. */
function BrandingPreview({ value, tenantName }: { value: BrandingLook; tenantName: string }) {
  const accent = hexToHsl(value.accentColor) ?? DEFAULT_BRANDING.accentHsl;
  const dark = value.appearance === "dark";
  const d = DEFAULT_BRANDING;
  const style = {
    "--accent": accent,
    "--accent-foreground": readableOn(hslToHex(accent)),
    "--accent-ink": accentAsText(hslToHex(accent), hslToHex(dark ? d.darkPrimary : d.lightPrimary)),
    "--radius": value.radius,
    "--primary-bg": dark ? d.darkPrimary : d.lightPrimary,
    "--elevated": dark ? d.darkElevated : d.lightElevated,
    "--line": dark ? d.darkBorder : d.lightBorder,
    fontFamily: fontStack(value.fontFamily),
    color: dark ? "white" : "#111",
  } as CSSProperties;
  return (
    <section aria-labelledby="preview-heading" className="rounded-brand border border-line p-4">
      <h2 id="preview-heading" className="text-lg font-semibold">
        Preview
      </h2>
      <div
        data-testid="branding-preview"
        data-appearance={value.appearance}
        style={style}
        className="mt-3 overflow-hidden rounded-brand border border-line bg-primary-bg"
      >
        <div className="flex items-center gap-2 border-b border-line bg-elevated px-4 py-3 font-bold">
          <span aria-hidden="true" className="inline-block h-6 w-6 rounded-brand bg-accent" />
          {tenantName}
        </div>
        <div className="space-y-3 p-4">
          <p>The quick brown fox jumps over the lazy dog. {value.appearance === "auto" ? "(Light or dark follows each person's system.)" : null}</p>
          <div className="flex gap-2">
            <span className="inline-flex rounded-brand bg-accent px-4 py-2 text-sm font-medium text-accent-foreground">Primary button</span>
            <span className="inline-flex rounded-brand border border-line bg-elevated px-4 py-2 text-sm">Secondary</span>
            <span className="inline-flex items-center px-2 text-sm text-accent-ink underline">A link</span>
          </div>
        </div>
      </div>
    </section>
  );
}

// eslint-disable-next-line max-lines-per-function -- one form: every field reads the same form state, so a split would only pass it through props
export default function BrandingSettings({ loaderData, actionData }: Route.ComponentProps) {
  const { saved, logo, tenantName } = loaderData;
  const [live, setLive] = useState<BrandingLook>(saved);
  const [form, fields] = useForm({
    lastResult: actionData?.result ?? undefined,
    defaultValue: saved,
  });
  // With JavaScript the preview follows the form as it changes; a value still invalid keeps the last good one.
  const follow = (formEl: HTMLFormElement) => {
    const look = lookFromForm(Object.fromEntries(new FormData(formEl)));
    if (look) setLive(look);
  };
  return (
    <AppShell>
      <div className="mx-auto max-w-5xl px-6 py-10">
        <h1 className="text-2xl font-bold">Branding</h1>
        <SettingsNav />
        <div className="mt-6 grid gap-8 md:grid-cols-2">
          <Form method="post" {...getFormProps(form)} onChange={(e) => follow(e.currentTarget)} className="space-y-5">
            <Field id={fields.accentColor.id} label="Accent colour" hint="# and six hexadecimal digits, e.g. #00D16A." error={fields.accentColor.errors}>
              <div className="flex gap-2">
                <input
                  {...getInputProps(fields.accentColor, { type: "text", ariaDescribedBy: fields.accentColor.descriptionId })}
                  key={fields.accentColor.key}
                  className={inputClass}
                  maxLength={7}
                  autoComplete="off"
                  spellCheck={false}
                />
                <input
                  type="color"
                  aria-label="Pick the accent colour"
                  value={(HEX_COLOUR_RE.test(live.accentColor) ? live.accentColor : saved.accentColor).toLowerCase()}
                  onChange={(e) => {
                    const text = e.currentTarget.form?.elements.namedItem("accentColor");
                    if (text instanceof HTMLInputElement) text.value = e.currentTarget.value.toUpperCase();
                    if (e.currentTarget.form) follow(e.currentTarget.form);
                  }}
                  className="h-10 w-12 shrink-0 cursor-pointer rounded-brand border border-line bg-primary-bg"
                />
              </div>
            </Field>
            <Field id={fields.radius.id} label="Corner radius" error={fields.radius.errors}>
              <select {...getSelectProps(fields.radius)} key={fields.radius.key} className={inputClass}>
                {BRAND_RADII.map((r) => (
                  <option key={r} value={r}>
                    {RADIUS_LABELS[r]}
                  </option>
                ))}
              </select>
            </Field>
            <Field id={fields.appearance.id} label="Appearance" hint="What people see until they choose their own theme." error={fields.appearance.errors}>
              <select
                {...getSelectProps(fields.appearance, { ariaDescribedBy: fields.appearance.descriptionId })}
                key={fields.appearance.key}
                className={inputClass}
              >
                {BRAND_APPEARANCES.map((a) => (
                  <option key={a} value={a}>
                    {APPEARANCE_LABELS[a]}
                  </option>
                ))}
              </select>
            </Field>
            <Field id={fields.fontFamily.id} label="Font" error={fields.fontFamily.errors}>
              <select {...getSelectProps(fields.fontFamily)} key={fields.fontFamily.key} className={inputClass}>
                {BRAND_FONTS.map((f) => (
                  <option key={f.id} value={f.id}>
                    {f.label}
                  </option>
                ))}
              </select>
            </Field>
            <Field
              id={fields.address.id}
              label="Address on documents"
              hint="Printed on statements under your company name. One line per part, up to 6 lines."
              error={fields.address.errors}
            >
              <textarea
                {...getTextareaProps(fields.address, { ariaDescribedBy: fields.address.descriptionId })}
                key={fields.address.key}
                className={inputClass}
                rows={4}
                maxLength={300}
                autoComplete="street-address"
              />
            </Field>
            <SubmitButton pendingText="Saving...">Save branding</SubmitButton>
          </Form>
          <div className="space-y-6">
            <BrandingPreview value={live} tenantName={tenantName} />
            <LogoForm logo={logo} error={actionData?.logoError ?? null} />
          </div>
        </div>
      </div>
    </AppShell>
  );
}

export function meta() {
  return [{ title: "Branding" }];
}
