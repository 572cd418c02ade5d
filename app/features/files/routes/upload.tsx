import { data, redirect } from "react-router";
import { devToolsEnabled } from "~/features/platform/index.server";
import { redirectWithToast } from "~/features/platform/index.server";
import { UploadForm } from "../components/upload-form";
import { FILE_ERRORS, FILE_MESSAGES } from "../file-rules";
import { uploadPageData } from "../listing.server";
import { requireModule } from "~/features/auth/index.server";
import { filePerms, viewerOf } from "../module.server";
import { handleUpload } from "../upload.server";
import type { Route } from "./+types/upload";

export async function loader({ request, context }: Route.LoaderArgs) {
  const { env, tenant, user } = await requireModule(request, context, { module: "files", scope: "files.upload", message: FILE_MESSAGES.noUploadPermission });
  const viewer = viewerOf(user);
  const params = new URL(request.url).searchParams;
  const fileId = params.get("fileId");
  const page = await uploadPageData(env, tenant.id, viewer, fileId && fileId.length <= 100 ? fileId : null);
  if (fileId && !page.versionOf) throw data("File not found", { status: 404 });
  // Browser tests lower the size at which the script switches to parts, to drive that path with a small file.
  const threshold = devToolsEnabled(env, request) ? Number(params.get("multipartThreshold") ?? "") : NaN;
  return {
    ...page,
    mayShare: filePerms(user).share,
    folderId: params.get("folderId"),
    multipartThreshold: Number.isSafeInteger(threshold) && threshold > 0 ? threshold : null,
  };
}

/** The form without JavaScript: the body streams to R2, then the list. */
export async function action({ request, context }: Route.ActionArgs) {
  const { env, tenant, user } = await requireModule(request, context, { module: "files", scope: "files.upload", message: FILE_MESSAGES.noUploadPermission });
  const viewer = viewerOf(user);
  const result = await handleUpload(request, env, tenant.id, viewer, { mayShare: filePerms(user).share });
  if (result.ok) {
    const title = result.version > 1 ? `Uploaded version ${result.version} of ${result.name}` : `Uploaded ${result.name}`;
    return redirectWithToast(env, "/files/all", { type: "success", title });
  }
  if (result.code === "cancelled") return redirect("/files/upload");
  const err = FILE_ERRORS[result.code];
  return data({ error: err.message }, { status: err.status });
}

export default function UploadPage({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <section>
      <h1 className="mb-4 text-2xl font-semibold">{loaderData.versionOf ? "Upload a new version" : "Upload File"}</h1>
      <UploadForm
        key={actionData?.error ?? "form"}
        people={loaderData.people}
        folders={loaderData.folders}
        mayShare={loaderData.mayShare}
        versionOf={loaderData.versionOf}
        error={actionData?.error ?? (loaderData.versionOf?.pendingSign ? FILE_ERRORS.signature_pending.message : null)}
        defaultFolderId={loaderData.folderId}
        multipartThreshold={loaderData.multipartThreshold ?? undefined}
      />
    </section>
  );
}

export function meta() {
  return [{ title: "Upload File" }];
}
