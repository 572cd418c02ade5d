import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Link } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { can } from "~/features/auth";
import { redirectWithToast } from "~/features/platform/index.server";
import { reportInternalError } from "~/features/platform";
import { SubcontractorForm, type SubcontractorFormDefaults } from "../subcontractors/components/subcontractor-form";
import {
  DEFAULT_SUBCONTRACTOR_VALUES,
  subcontractorCreateSchema,
  subcontractorUpdateSchema,
  type SubcontractorCreate,
  type SubcontractorUpdate,
} from "../domain/schemas";
import { rateFor, UNVERIFIED, type VerificationValues } from "../domain/verification-fields";
import { requireModule } from "~/features/auth/index.server";
import { ENCRYPT_FAILED, PiiError } from "../pii.server";
import { subcontractorFormParamsSchema } from "../subcontractors/schemas";
import { SUBCONTRACTOR_SAVE_MESSAGES } from "../subcontractors/subcontractor-messages";
import { createSubcontractor, getSubcontractor, updateSubcontractor, type SaveResult } from "../subcontractors/subcontractors.server";
import type { Route } from "./+types/subcontractor-form";

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { env, tenant, user } = await requireModule(request, context, { module: "cis", scope: "cis.sub.write" });
  const { id } = subcontractorFormParamsSchema.parse(params);
  const canVerify = can(user, "cis.sub.verify");
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
      publicBody: false,
    };
    return { mode: "create" as const, id: null, name: null, defaults, utrMasked: null, ninoMasked: null, canVerify };
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
    publicBody: row.publicBody,
  };
  return { mode: "edit" as const, id: row.id, name: row.name, defaults, utrMasked: row.utrMasked, ninoMasked: row.ninoMasked, canVerify };
}

/**
 * Someone without cis.sub.verify gets the verification fields read-only, so the form posts none
 * of them: an absent field keeps the stored value (or, on create, the unverified default). A
 * posted one that differs is refused by the data layer.
 */
function keepUnposted<T extends SubcontractorCreate | SubcontractorUpdate>(value: T, formData: FormData, base: VerificationValues): T {
  const pick = <K extends keyof VerificationValues>(k: K) => (formData.has(k) ? value[k] : (base[k] ?? undefined));
  const kept = {
    ...value,
    verificationStatus: pick("verificationStatus") ?? UNVERIFIED.verificationStatus,
    verificationMethod: pick("verificationMethod"),
    verificationReference: pick("verificationReference"),
    verifiedDate: pick("verifiedDate"),
  };
  return { ...kept, verificationRate: rateFor(kept) };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const { env, tenant, user, actor } = await requireModule(request, context, { module: "cis", scope: "cis.sub.write" });
  const { id } = subcontractorFormParamsSchema.parse(params);
  const existing = id ? await getSubcontractor(env, tenant.id, id) : null;
  if (id && !existing) throw data("Not found", { status: 404 });
  const formData = await request.formData();
  const canVerify = can(user, "cis.sub.verify");

  type Reply = (options: { formErrors?: string[]; fieldErrors?: Record<string, string[]> }) => SubmissionResult<string[]>;
  const answer = async (reply: Reply, name: string, save: () => Promise<SaveResult>) => {
    let saved: SaveResult;
    try {
      saved = await save();
    } catch (err) {
      // The error's own text can name configuration (PII_KEYS): it goes to the log under the
      // reference, and the person sees the product's sentence with that reference.
      const summary = err instanceof PiiError ? `${ENCRYPT_FAILED}.` : "Failed to save subcontractor. Nothing was changed; please try again.";
      const message = reportInternalError(context, err, "cis subcontractor save", summary);
      return data({ result: reply({ formErrors: [message] }) }, { status: 500 });
    }
    if (saved.ok) {
      // A new subcontractor opens on its own page, where the next step (invite, invoice) starts.
      return redirectWithToast(env, id ? "/cis/subcontractors" : `/cis/subcontractors/${saved.id}`, {
        type: "success",
        title: id ? "Subcontractor updated" : "Subcontractor created",
        message: `${name} has been ${id ? "updated" : "created"}.`,
      });
    }
    const message = SUBCONTRACTOR_SAVE_MESSAGES[saved.code];
    switch (saved.code) {
      case "not_found":
        throw data("Not found", { status: 404 });
      case "duplicate_utr":
        return data({ result: reply({ formErrors: [message] }) }, { status: 409 });
      case "verification_forbidden":
        return data({ result: reply({ fieldErrors: Object.fromEntries(saved.fields.map((f) => [f, [message]])) }) }, { status: 400 });
    }
  };

  if (existing) {
    const submission = parseWithZod(formData, { schema: subcontractorUpdateSchema });
    if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
    const value = canVerify ? submission.value : keepUnposted(submission.value, formData, existing);
    return answer(
      (o) => submission.reply(o),
      value.name,
      () => updateSubcontractor(env, tenant.id, existing.id, value, actor, { canVerify }),
    );
  }
  const submission = parseWithZod(formData, { schema: subcontractorCreateSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const value = canVerify ? submission.value : keepUnposted(submission.value, formData, UNVERIFIED);
  return answer(
    (o) => submission.reply(o),
    value.name,
    () => createSubcontractor(env, tenant.id, value, actor, { canVerify }),
  );
}

export default function SubcontractorFormPage({ loaderData, actionData }: Route.ComponentProps) {
  const { mode, id, name, defaults, utrMasked, ninoMasked, canVerify } = loaderData;
  return (
    <div className="space-y-6">
      <div className="flex items-center gap-3">
        <Link to={id ? `/cis/subcontractors/${id}` : "/cis/subcontractors"} className={buttonClass("ghost")}>
          Back
        </Link>
        <h2 className="text-xl font-semibold">{mode === "create" ? "New Subcontractor" : `Edit ${name || "Untitled"}`}</h2>
      </div>
      <SubcontractorForm
        key={id ?? "new"}
        mode={mode}
        lastResult={actionData?.result}
        defaultValue={defaults}
        utrMasked={utrMasked}
        ninoMasked={ninoMasked}
        canVerify={canVerify}
      />
    </div>
  );
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: loaderData?.mode === "edit" ? `Edit ${loaderData.name} · CIS` : "New Subcontractor · CIS" }];
}
