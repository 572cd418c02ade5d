import { data, Form, Link, useLocation } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { inputClass } from "~/components/ui/field";
import { requireScope } from "~/features/auth/index.server";
import { redirectWithToast } from "~/features/platform/index.server";
import { useHydrated } from "~/utils/use-hydrated";
import { useSelection } from "~/utils/use-selection";
import { mintSubmissionKey } from "~/features/platform/index.server";
import { bulkAction, bulkScope } from "../bulk-actions.server";
import { BulkBar, FileTable, type SortKey } from "../components/file-list";
import { DeleteConfirm } from "../components/delete-confirm";
import { FILE_ERRORS, FOLDER_COLOURS, slugify } from "../file-rules";
import { createFolder, deleteFolder, updateFolder } from "../folders.server";
import { listFolderLevel } from "../listing.server";
import { parseListQuery } from "../list-query.server";
import { requireModule } from "~/features/auth/index.server";
import { FILE_SCOPES, filePerms, viewerOf } from "../module.server";
import { folderActionSchema, folderPathSchema } from "../schemas";
import type { Route } from "./+types/folders";

function folderPath(params: Record<string, string | undefined>): string | null {
  const raw = params["*"]?.replace(/\/+$/, "") || undefined;
  const parsed = folderPathSchema.safeParse(raw);
  if (!parsed.success) throw data("Folder not found", { status: 404 });
  return parsed.data ?? null;
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { env, tenant, user } = await requireModule(request, context, { module: "files" });
  const viewer = viewerOf(user);
  const path = folderPath(params);
  const url = new URL(request.url);
  const query = parseListQuery(url.searchParams);
  const q = (url.searchParams.get("fq") ?? "").trim().slice(0, 100);
  const { folders, rows } = await listFolderLevel(env, tenant.id, viewer, path, query);
  const current = path ? folders.find((f) => f.path === path) : null;
  if (path && !current) throw data("Folder not found", { status: 404 });
  const parentId = current?.id ?? null;
  const siblings = current ? folders.filter((f) => f.parentId === current.parentId) : [];
  const at = current ? siblings.findIndex((f) => f.id === current.id) : -1;
  const crumbs = path ? path.split("/").map((_, i, parts) => parts.slice(0, i + 1).join("/")) : [];
  return {
    path,
    current: current ?? null,
    crumbs: crumbs.map((p) => ({ path: p, name: folders.find((f) => f.path === p)?.name ?? p })),
    children: folders.filter((f) => f.parentId === parentId && (!q || f.name.toLowerCase().includes(q.toLowerCase()))),
    previous: at > 0 ? siblings[at - 1] : null,
    next: at >= 0 && at < siblings.length - 1 ? siblings[at + 1] : null,
    folders,
    rows,
    query,
    fq: q,
    perms: filePerms(user),
    bulkKey: await mintSubmissionKey(env, bulkScope(tenant.id, user.id)),
  };
}

type FolderActionData = { intent: "create-folder" | "update-folder" | "delete-folder"; error: string; name?: string };

export async function action({ request, context, params }: Route.ActionArgs) {
  const req = await requireModule(request, context, { module: "files" });
  const { env, tenant, user } = req;
  const viewer = viewerOf(user);
  const path = folderPath(params);
  const peek = await request.clone().formData();
  const intent = peek.get("intent");
  if (intent === "move" || intent === "delete") return bulkAction(request, context, req);
  const parsed = folderActionSchema.safeParse({ intent, name: peek.get("name") ?? "", color: peek.get("color") ?? "" });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const which = intent === "update-folder" ? "update-folder" : "create-folder";
    return data<FolderActionData>({ intent: which, error: issue?.message ?? "Check the form", name: String(peek.get("name") ?? "") }, { status: 400 });
  }
  const input = parsed.data;
  const current = path
    ? (await listFolderLevel(env, tenant.id, viewer, null, { filter: "all", q: "", sort: "name", dir: "asc", page: 1 })).folders.find((f) => f.path === path)
    : null;
  if (path && !current) throw data("Folder not found", { status: 404 });

  if (input.intent === "create-folder") {
    await requireScope(request, context, user, FILE_SCOPES.createFolders);
    const made = await createFolder(env, tenant.id, viewer, { name: input.name, color: input.color, parentId: current?.id ?? null, slug: slugify(input.name) });
    if (!made.ok)
      return data<FolderActionData>(
        { intent: "create-folder", error: FILE_ERRORS[made.code].message, name: input.name },
        { status: FILE_ERRORS[made.code].status },
      );
    return redirectWithToast(env, `/files/folders/${made.path}`, { type: "success", title: `Folder ${input.name} created` });
  }
  await requireScope(request, context, user, FILE_SCOPES.manageFolders);
  if (!current) throw data("Folder not found", { status: 404 });
  if (input.intent === "update-folder") {
    const updated = await updateFolder(env, tenant.id, viewer, current.id, { name: input.name, color: input.color, slug: slugify(input.name) });
    if (!updated.ok)
      return data<FolderActionData>(
        { intent: "update-folder", error: FILE_ERRORS[updated.code].message, name: input.name },
        { status: FILE_ERRORS[updated.code].status },
      );
    return redirectWithToast(env, `/files/folders/${updated.path}`, { type: "success", title: "Folder updated" });
  }
  const removed = await deleteFolder(env, tenant.id, viewer, current.id);
  if (!removed.ok)
    return data<FolderActionData>({ intent: "delete-folder", error: FILE_ERRORS[removed.code].message }, { status: FILE_ERRORS[removed.code].status });
  return redirectWithToast(env, removed.parentPath ? `/files/folders/${removed.parentPath}` : "/files/folders", { type: "success", title: "Folder deleted" });
}

function FolderFields({ intent, name, color, error }: { intent: string; name: string; color: string; error: string | null }) {
  const errorId = `${intent}-error`;
  return (
    <>
      <input type="hidden" name="intent" value={intent} />
      <label className="text-sm">
        <span className="block font-medium">Name</span>
        <input
          name="name"
          defaultValue={name}
          required
          maxLength={80}
          className={inputClass}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
        />
      </label>
      <label className="text-sm">
        <span className="block font-medium">Colour</span>
        <select name="color" defaultValue={color} className={inputClass}>
          {FOLDER_COLOURS.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
      </label>
      {error ? (
        <p id={errorId} role="alert" className="text-sm text-danger">
          {error}
        </p>
      ) : null}
    </>
  );
}

export default function Folders({ loaderData, actionData }: Route.ComponentProps) {
  const { current, children, folders, rows, query, fq, perms, bulkKey } = loaderData;
  const location = useLocation();
  const hydrated = useHydrated();
  const { selected, toggle, toggleAll } = useSelection(
    rows.map((r) => r.id),
    [location.pathname, location.search, rows],
  );
  const err = (intent: string) => (actionData && "intent" in actionData && actionData.intent === intent ? actionData.error : null);
  const typed = (intent: string) => (actionData && "intent" in actionData && actionData.intent === intent ? actionData.name : undefined);
  const sortHref = (key: SortKey) => `?sort=${key}&dir=${query.sort === key && query.dir === "asc" ? "desc" : "asc"}`;
  return (
    <section className="space-y-4">
      <FolderHeader loaderData={loaderData} />
      <Form method="get" role="search" className="flex gap-2">
        <label>
          <span className="sr-only">Search folders...</span>
          <input type="search" name="fq" defaultValue={fq} placeholder="Search folders..." className={inputClass} />
        </label>
        <button type="submit" className={buttonClass("secondary")}>
          Search
        </button>
      </Form>
      <ChildFolders items={children} fq={fq} />
      <div className="flex flex-wrap gap-6">
        {perms.createFolders ? (
          <Form method="post" className="flex flex-wrap items-end gap-2" aria-label="New Folder">
            <FolderFields intent="create-folder" name={typed("create-folder") ?? ""} color={FOLDER_COLOURS[0]} error={err("create-folder")} />
            <button type="submit" className={buttonClass("primary")}>
              New Folder
            </button>
          </Form>
        ) : null}
        {current && perms.manageFolders ? (
          <>
            <Form method="post" className="flex flex-wrap items-end gap-2" aria-label="Edit Folder">
              <FolderFields intent="update-folder" name={typed("update-folder") ?? current.name} color={current.color} error={err("update-folder")} />
              <button type="submit" className={buttonClass("secondary")}>
                Edit Folder
              </button>
            </Form>
            <Form method="post" aria-label="Delete folder">
              <input type="hidden" name="intent" value="delete-folder" />
              <button type="submit" className={buttonClass("danger")}>
                Delete folder
              </button>
              {err("delete-folder") ? (
                <p role="alert" className="text-sm text-danger">
                  {err("delete-folder")}
                </p>
              ) : null}
            </Form>
          </>
        ) : null}
      </div>
      {actionData && "step" in actionData && actionData.step === "confirm-delete" ? (
        <DeleteConfirm items={actionData.items} cancelTo={location.pathname} submissionKey={actionData.key} />
      ) : null}
      {actionData && "step" in actionData && actionData.step === "error" ? (
        <p role="alert" className="text-danger">
          {actionData.message}
        </p>
      ) : null}
      <BulkBar selectedCount={selected.size} hydrated={hydrated} folders={folders} perms={perms} submissionKey={bulkKey} />
      <FileTable
        rows={rows}
        sort={{ key: query.sort, dir: query.dir }}
        sortHref={sortHref}
        selected={selected}
        onToggle={toggle}
        onToggleAll={toggleAll}
        emptyText="No files in this folder."
      />
    </section>
  );
}

type FoldersData = Route.ComponentProps["loaderData"];

function FolderHeader({ loaderData }: { loaderData: FoldersData }) {
  const { current, crumbs, previous, next } = loaderData;
  return (
    <>
      <nav aria-label="Breadcrumb" className="text-sm">
        <ol className="flex flex-wrap gap-1">
          <li>
            <Link to="/files/folders" className="underline">
              Folders
            </Link>
          </li>
          {crumbs.map((c) => (
            <li key={c.path}>
              <span aria-hidden="true">/ </span>
              {c.path === current?.path ? (
                <span aria-current="page">{c.name}</span>
              ) : (
                <Link to={`/files/folders/${c.path}`} className="underline">
                  {c.name}
                </Link>
              )}
            </li>
          ))}
        </ol>
      </nav>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="flex items-center gap-2 text-2xl font-semibold">
          {current ? <span aria-hidden="true" className="inline-block h-4 w-4 rounded" style={{ backgroundColor: current.color }} /> : null}
          {current?.name ?? "Folders"}
        </h1>
        <div className="flex gap-2 text-sm">
          {previous ? (
            <Link to={`/files/folders/${previous.path}`} rel="prev" className={buttonClass("secondary")}>
              Previous folder
            </Link>
          ) : null}
          {next ? (
            <Link to={`/files/folders/${next.path}`} rel="next" className={buttonClass("secondary")}>
              Next folder
            </Link>
          ) : null}
        </div>
      </div>
    </>
  );
}

function ChildFolders({ items, fq }: { items: FoldersData["children"]; fq: FoldersData["fq"] }) {
  if (items.length === 0) return <p className="opacity-70">{fq ? "No folders match your search." : "No folders here yet."}</p>;
  return (
    <ul className="grid grid-cols-2 gap-2 sm:grid-cols-4" aria-label="Folders">
      {items.map((f) => (
        <li key={f.id}>
          <Link to={`/files/folders/${f.path}`} className="flex items-center gap-2 rounded-brand border border-line p-3 hover:bg-surface">
            <span aria-hidden="true" className="inline-block h-4 w-4 rounded" style={{ backgroundColor: f.color }} />
            {f.name}
          </Link>
        </li>
      ))}
    </ul>
  );
}

export function meta() {
  return [{ title: "Folders" }];
}
