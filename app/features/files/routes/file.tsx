import { data, Form, Link } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { inputClass } from "~/components/ui/field";
import { confirmThenSubmit } from "~/components/ui/confirm-then-submit";
import { requireScope } from "~/features/auth/index.server";
import { redirectWithToast } from "~/features/platform/index.server";
import { formatDateTime } from "~/utils/dates";
import { DownloadLink } from "../components/download-link";
import { DeleteConfirm } from "../components/delete-confirm";
import { ShareForm } from "../components/share-form";
import { deleteDialogTexts, FILE_ERRORS, FILE_MESSAGES, formatBytes, previewMode, visibilityLabel } from "../file-rules";
import { getFile } from "../listing.server";
import { deleteFiles, moveFiles } from "../move-delete.server";
import { shareFile } from "../sharing.server";
import { requireModule } from "~/features/auth/index.server";
import { FILE_SCOPES, filePerms, viewerOf } from "../module.server";
import { signaturePerms, signatureRequestScope } from "../signatures/access.server";
import { RequestSignatureForm } from "../signatures/components/request-signature-form";
import { subcontractorSignersFor } from "../signatures/subcontractor-signers.server";
import { mintSubmissionKey, submitOnce } from "~/features/platform/index.server";
import { fileActionSchema, fileParamsSchema } from "../schemas";
import type { Route } from "./+types/file";

const TEXT_PREVIEW_BYTES = 256 * 1024;

/** Sharing notifies people: once per submission key (bound to the file). */
const shareScope = (tenantId: string, userId: string, fileId: string) => ({ tenantId, userId, action: `files.share:${fileId}` });

export async function loader({ request, context, params: raw }: Route.LoaderArgs) {
  const { env, tenant, user } = await requireModule(request, context, { module: "files" });
  const viewer = viewerOf(user);
  const { id } = fileParamsSchema.parse(raw);
  const subcontractors = signaturePerms(user).create ? subcontractorSignersFor(tenant, user) : null;
  const found = await getFile(env, tenant.id, viewer, id, subcontractors);
  if (!found.ok) throw data("File not found", { status: 404 });
  const mode = previewMode(found.file.mimeType, found.file.name);
  let text: string | null = null;
  let loadFailed = false;
  if (mode === "text") {
    const object = await env.FILES.get(found.file.storageKey, { range: { offset: 0, length: TEXT_PREVIEW_BYTES } });
    if (object) text = await object.text();
    else loadFailed = true;
  }
  const { file } = found;
  return {
    file: {
      id: file.id,
      name: file.name,
      size: file.size,
      mimeType: file.mimeType,
      visibility: file.visibility,
      ownerName: file.ownerName,
      version: file.version,
      createdAt: file.createdAt,
      folderId: file.folderId,
      pendingSign: file.pendingSign,
      signed: file.signed,
    },
    versions: found.versions.map((v) => ({ version: v.version, size: v.size, createdAt: v.createdAt, signed: v.type === "signed" })),
    access: found.access,
    folders: found.folders,
    people: found.people,
    subcontractors: subcontractors && found.mayChange ? found.subcontractorChoices : null,
    mayChange: found.mayChange,
    perms: filePerms(user),
    shareKey: filePerms(user).share && found.mayChange ? await mintSubmissionKey(env, shareScope(tenant.id, user.id, file.id)) : null,
    signatureKey: signaturePerms(user).create && found.mayChange ? await mintSubmissionKey(env, signatureRequestScope(tenant.id, user.id, file.id)) : null,
    preview: { mode, text, truncated: text !== null && found.file.size > TEXT_PREVIEW_BYTES, loadFailed },
  };
}

type ActionData =
  { intent: "share" | "move" | "delete"; error: string } | { intent: "confirm-delete"; items: { id: string; name: string; mayChange: boolean }[] };

export async function action({ request, context, params: raw }: Route.ActionArgs) {
  const req = await requireModule(request, context, { module: "files" });
  const { env, tenant, user } = req;
  const viewer = viewerOf(user);
  const { id } = fileParamsSchema.parse(raw);
  const form = await request.formData();
  const parsed = fileActionSchema.safeParse({
    intent: form.get("intent"),
    userIds: form.getAll("userIds"),
    folderId: form.get("folderId") ?? "",
    confirmed: form.get("confirmed") ?? undefined,
  });
  if (!parsed.success) throw data("Bad request", { status: 400 });
  const input = parsed.data;
  const here = `/files/file/${id}`;

  if (input.intent === "share") {
    await requireScope(request, context, user, FILE_SCOPES.share, FILE_MESSAGES.noSharePermission);
    // A file this person cannot see (or another tenant's) is not found, before the form's key is looked at.
    if (!(await getFile(env, tenant.id, viewer, id)).ok) throw data("File not found", { status: 404 });
    const sent = await submitOnce(env, form, shareScope(tenant.id, user.id, id), (claim) =>
      shareFile(env, tenant.id, viewer, id, input.userIds, Date.now(), claim),
    );
    if (sent.kind === "refused" || sent.kind === "pending") return data<ActionData>({ intent: "share", error: sent.message }, { status: 409 });
    const shared = sent.result;
    if (!shared.ok) {
      if (shared.code === "not_found") throw data("File not found", { status: 404 });
      return data<ActionData>({ intent: "share", error: FILE_ERRORS[shared.code].message }, { status: FILE_ERRORS[shared.code].status });
    }
    return redirectWithToast(env, here, { type: "success", title: `Shared with ${shared.recipients} user(s)` });
  }

  if (input.intent === "move") {
    const moved = await moveFiles(env, tenant.id, viewer, [id], input.folderId || null);
    if ("ok" in moved) return data<ActionData>({ intent: "move", error: FILE_ERRORS[moved.code].message }, { status: FILE_ERRORS[moved.code].status });
    const failure = moved.failed[0];
    if (failure?.code === "not_found") throw data("File not found", { status: 404 });
    if (failure) return data<ActionData>({ intent: "move", error: FILE_ERRORS[failure.code].message }, { status: FILE_ERRORS[failure.code].status });
    return redirectWithToast(env, here, { type: "success", title: "File moved" });
  }

  await requireScope(request, context, user, FILE_SCOPES.delete);
  const found = await getFile(env, tenant.id, viewer, id);
  if (!found.ok) throw data("File not found", { status: 404 });
  if (!input.confirmed) return data<ActionData>({ intent: "confirm-delete", items: [{ id, name: found.file.name, mayChange: found.mayChange }] });
  if (!found.mayChange) return data<ActionData>({ intent: "delete", error: FILE_ERRORS.not_owner.message }, { status: 403 });
  const result = await deleteFiles(env, tenant.id, viewer, [id]);
  if (result.succeeded.length === 0) return data<ActionData>({ intent: "delete", error: `Could not delete: ${found.file.name}` }, { status: 500 });
  return redirectWithToast(env, "/files/all", { type: "success", title: `Deleted ${found.file.name}` });
}

export default function FilePage({ loaderData, actionData }: Route.ComponentProps) {
  const { file, versions, access, folders, people, subcontractors, mayChange, perms, preview, signatureKey, shareKey } = loaderData;
  const err = (intent: string) => (actionData && actionData.intent === intent && "error" in actionData ? actionData.error : null);
  return (
    <article className="space-y-6">
      <header className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold">{file.name}</h1>
          <p className="text-sm opacity-70">
            {formatBytes(file.size)} · {file.ownerName} · {visibilityLabel(file.visibility, access.length)} · version {file.version} ·{" "}
            {formatDateTime(file.createdAt)}
          </p>
        </div>
        <div className="flex gap-2">
          <DownloadLink href={`/files/file/${file.id}/download`} className={buttonClass("primary")}>
            Download
          </DownloadLink>
          {perms.upload && mayChange && !file.pendingSign ? (
            <Link to={`/files/upload?fileId=${file.id}`} className={buttonClass("secondary")}>
              Upload new version
            </Link>
          ) : null}
        </div>
      </header>

      {actionData?.intent === "confirm-delete" ? <DeleteConfirm items={actionData.items} cancelTo={`/files/file/${file.id}`} /> : null}

      <FilePreview file={file} preview={preview} />

      {mayChange ? <MoveForm file={file} folders={folders} error={err("move")} /> : null}

      {perms.share && mayChange ? <ShareForm people={people} error={err("share")} submissionKey={shareKey} /> : null}

      {signatureKey ? <RequestSignatureForm file={file} people={people} subcontractors={subcontractors} submissionKey={signatureKey} /> : null}

      {access.length ? (
        <section>
          <h2 className="text-lg font-semibold">People with access</h2>
          <ul className="list-disc pl-6 text-sm">
            {access.map((a) => (
              <li key={a.userId}>
                {a.name} ({a.email})
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <VersionsSection fileId={file.id} versions={versions} />

      {perms.delete && mayChange ? (
        <Form
          method="post"
          onSubmit={confirmThenSubmit(() => {
            const t = deleteDialogTexts(1, 1);
            return [t.title, ...t.lines].join("\n");
          })}
        >
          <input type="hidden" name="intent" value="delete" />
          <input type="hidden" name="confirmed" value="" />
          <button type="submit" className={buttonClass("danger")}>
            Delete
          </button>
          {err("delete") ? (
            <p role="alert" className="text-sm text-danger">
              {err("delete")}
            </p>
          ) : null}
        </Form>
      ) : null}
    </article>
  );
}

type FileData = Route.ComponentProps["loaderData"];

function FilePreview({ file, preview }: { file: FileData["file"]; preview: FileData["preview"] }) {
  return (
    <section aria-label="Preview" className="rounded-brand border border-line p-3">
      {preview.loadFailed ? (
        <p role="alert">
          {FILE_MESSAGES.unableToLoad}{" "}
          <DownloadLink href={`/files/file/${file.id}/download`} className="underline">
            Download File
          </DownloadLink>
        </p>
      ) : preview.mode === "text" ? (
        <pre className="max-h-[32rem] overflow-auto whitespace-pre-wrap text-sm" data-testid="text-preview">
          {preview.text}
          {preview.truncated ? "\n…" : ""}
        </pre>
      ) : preview.mode === "image" ? (
        <img src={`/files/file/${file.id}/content`} alt={file.name} className="max-h-[32rem]" />
      ) : preview.mode === "pdf" ? (
        <iframe src={`/files/file/${file.id}/content`} title={file.name} className="h-[40rem] w-full" />
      ) : (
        <p>{FILE_MESSAGES.previewUnavailable}</p>
      )}
    </section>
  );
}

function MoveForm({ file, folders, error }: { file: FileData["file"]; folders: FileData["folders"]; error: string | null }) {
  return (
    <Form method="post" className="flex flex-wrap items-end gap-2" aria-label="Move to Folder">
      <input type="hidden" name="intent" value="move" />
      <label className="text-sm">
        <span className="block font-medium">Move to Folder</span>
        <select name="folderId" defaultValue={file.folderId ?? ""} className={inputClass} aria-describedby={error ? "move-error" : undefined}>
          <option value="">Root (No folder)</option>
          {folders.map((f) => (
            <option key={f.id} value={f.id}>
              {f.path.replace(/\//g, " / ")}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" className={buttonClass("secondary")}>
        Move
      </button>
      {error ? (
        <p id="move-error" role="alert" className="text-sm text-danger">
          {error}
        </p>
      ) : null}
    </Form>
  );
}

function VersionsSection({ fileId, versions }: { fileId: FileData["file"]["id"]; versions: FileData["versions"] }) {
  return (
    <section>
      <h2 className="text-lg font-semibold">Versions</h2>
      <ul className="text-sm">
        {versions.map((v) => (
          <li key={v.version} data-version={v.version}>
            <DownloadLink href={`/files/file/${fileId}/download?v=${v.version}`} className="underline">
              Version {v.version}
            </DownloadLink>{" "}
            · {formatBytes(v.size)} · {formatDateTime(v.createdAt)}
            {v.signed ? " · Signed" : ""}
          </li>
        ))}
      </ul>
    </section>
  );
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: loaderData?.file.name ?? "File" }];
}
