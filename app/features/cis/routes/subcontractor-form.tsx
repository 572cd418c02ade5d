import { parseWithZod } from "@conform-to/zod/v4";
import { data, Link } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { redirectWithToast } from "~/features/platform/flash.server";
import { SubcontractorForm, type SubcontractorFormDefaults } from "../components/subcontractor-form";
import { DEFAULT_SUBCONTRACTOR_VALUES, subcontractorCreateSchema, subcontractorUpdateSchema } from "../domain";
import { actorOf, requireCis } from "../module.server";
import { PiiError } from "../pii.server";
import { createSubcontractor, getSubcontractor, updateSubcontractor } from "../subcontractors.server";
import type { Route } from "./+types/subcontractor-form";

// One module for /cis/subcontractors/new and /cis/subcontractors/:id/edit: the id decides.

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { env, tenant } = await requireCis(request, context, "cis.sub.write");
  const id = (params as { id?: string }).id;
  if (!id) {
    const defaults: SubcontractorFormDefaults = {
      type: DEFAULT_SUBCONTRACTOR_VALUES.type,
      name: "",
      companyNumber: "",
      vatNumber: "",
      email: "",
      phone: "",
      verificationStatus: DEFAULT_SUBCONTRACTOR_VALUES.verificationStatus,
      verificationMethod: "",
      verificationReference: "",
      verificationNotes: "",
      verifiedDate: "",
      active: DEFAULT_SUBCONTRACTOR_VALUES.active,
    };
    return { mode: "create" as const, id: null, name: null, defaults, utrMasked: null, ninoMasked: null };
  }
  const row = await getSubcontractor(env, tenant.id, id);
  if (!row) throw data("Not found", { status: 404 });
  const defaults: SubcontractorFormDefaults = {
    type: row.type,
    name: row.name,
    companyNumber: row.companyNumber ?? "",
    vatNumber: row.vatNumber ?? "",
    email: row.email ?? "",
    phone: row.phone ?? "",
    verificationStatus: row.verificationStatus,
    verificationMethod: row.verificationMethod ?? "",
    verificationReference: row.verificationReference ?? "",
    verificationNotes: row.verificationNotes ?? "",
    verifiedDate: row.verifiedDate ?? "",
    active: row.active,
  };
  return { mode: "edit" as const, id: row.id, name: row.name, defaults, utrMasked: row.utrMasked, ninoMasked: row.ninoMasked };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const { env, tenant, user } = await requireCis(request, context, "cis.sub.write");
  const id = (params as { id?: string }).id;
  if (id && !(await getSubcontractor(env, tenant.id, id))) throw data("Not found", { status: 404 });
  const formData = await request.formData();
  const actor = actorOf(user);

  const submission = id ? parseWithZod(formData, { schema: subcontractorUpdateSchema }) : parseWithZod(formData, { schema: subcontractorCreateSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });

  let saved: Awaited<ReturnType<typeof createSubcontractor>>;
  try {
    saved = id ? await updateSubcontractor(env, tenant.id, id, submission.value as typeof subcontractorUpdateSchema._zod.output, actor) : await createSubcontractor(env, tenant.id, submission.value as typeof subcontractorCreateSchema._zod.output, actor);
  } catch (err) {
    // Known failures carry the product's message; anything else is logged and summarised.
    console.error("cis subcontractor save", err);
    const message = err instanceof PiiError ? err.message : "Failed to save subcontractor. Nothing was changed; please try again.";
    return data({ result: submission.reply({ formErrors: [message] }) }, { status: 500 });
  }
  if (!saved.ok) return data({ result: submission.reply({ formErrors: [saved.error] }) }, { status: saved.error === "Subcontractor not found" ? 404 : 409 });

  return redirectWithToast(env, "/cis/subcontractors", {
    type: "success",
    title: id ? "Subcontractor updated" : "Subcontractor created",
    message: `${submission.value.name} has been ${id ? "updated" : "created"}.`,
  });
}

export default function SubcontractorFormPage({ loaderData, actionData }: Route.ComponentProps) {
  const { mode, id, name, defaults, utrMasked, ninoMasked } = loaderData;
  return (
    <div className="space-y-6">
      <div className="flex items-center gap-3">
        <Link to={id ? `/cis/subcontractors/${id}` : "/cis/subcontractors"} className={buttonClass("ghost")}>
          Back
        </Link>
        <h2 className="text-xl font-semibold">{mode === "create" ? "New Subcontractor" : `Edit ${name || "Untitled"}`}</h2>
      </div>
      <SubcontractorForm key={id ?? "new"} mode={mode} lastResult={actionData?.result} defaultValue={defaults} utrMasked={utrMasked} ninoMasked={ninoMasked} />
    </div>
  );
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: loaderData?.mode === "edit" ? `Edit ${loaderData.name} · CIS` : "New Subcontractor · CIS" }];
}
