import { data, Form, Link, useLocation } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { Pager } from "~/components/ui/pager";
import { useHydrated } from "~/utils/use-hydrated";
import { useSelection } from "~/utils/use-selection";
import { mintSubmissionKey } from "~/features/platform/index.server";
import { bulkAction, bulkScope } from "../bulk-actions.server";
import { BulkBar, FileGrid, FileTable, noFilesText, type SortKey } from "../components/file-list";
import { DeleteConfirm } from "../components/delete-confirm";
import { ListToolbar } from "../components/list-toolbar";
import { listFiles, PAGE_SIZE } from "../listing.server";
import { parseListQuery, viewChoice } from "../list-query.server";
import { requireModule } from "~/features/auth/index.server";
import { filePerms, viewerOf } from "../module.server";
import type { Route } from "./+types/all";

export async function loader({ request, context }: Route.LoaderArgs) {
  const { env, tenant, user } = await requireModule(request, context, { module: "files" });
  const viewer = viewerOf(user);
  const query = parseListQuery(new URL(request.url).searchParams);
  const { view, tile, setCookie } = viewChoice(request, "all");
  const list = await listFiles(env, tenant.id, viewer, query);
  const headers = new Headers();
  if (setCookie) headers.append("Set-Cookie", setCookie);
  const bulkKey = await mintSubmissionKey(env, bulkScope(tenant.id, user.id));
  return data({ query, view, tile, perms: filePerms(user), bulkKey, ...list, pageCount: Math.max(1, Math.ceil(list.total / PAGE_SIZE)) }, { headers });
}

export async function action({ request, context }: Route.ActionArgs) {
  const req = await requireModule(request, context, { module: "files" });
  return bulkAction(request, context, req);
}

export default function AllFiles({ loaderData, actionData }: Route.ComponentProps) {
  const { query, view, tile, rows, total, folders, perms, pageCount, bulkKey } = loaderData;
  const location = useLocation();
  const hydrated = useHydrated();
  const { selected, toggle, toggleAll } = useSelection(
    rows.map((r) => r.id),
    [location.search, rows],
  );
  const href = (changes: Record<string, string | null>) => {
    const params = new URLSearchParams(location.search);
    for (const [k, v] of Object.entries(changes)) {
      if (v === null || v === "") params.delete(k);
      else params.set(k, v);
    }
    const s = params.toString();
    return s ? `?${s}` : location.pathname;
  };
  const sortHref = (key: SortKey) => href({ sort: key, dir: query.sort === key && query.dir === "asc" ? "desc" : "asc", page: null });
  const filtered = Boolean(query.q) || query.filter !== "all";
  return (
    <section>
      <div className="mb-4 flex items-center justify-between">
        <h1 className="text-2xl font-semibold">All files</h1>
        {perms.upload ? (
          <Link to="/files/upload" className={buttonClass("primary")}>
            Upload File
          </Link>
        ) : null}
      </div>
      <ListToolbar q={query.q} filter={query.filter} view={view} tile={tile} href={href} searchLabel="Search files..." />
      {/* An export is audited, so it is a POST; the download leaves the page as it is. */}
      <Form method="post" action="/files/export" reloadDocument className="-mt-2 mb-4">
        <input type="hidden" name="filter" value={query.filter} />
        <input type="hidden" name="q" value={query.q} />
        <input type="hidden" name="sort" value={query.sort} />
        <input type="hidden" name="dir" value={query.dir} />
        <button type="submit" className={buttonClass("secondary")} disabled={total === 0}>
          Export CSV
        </button>
      </Form>
      {actionData && "step" in actionData && actionData.step === "confirm-delete" ? (
        <DeleteConfirm items={actionData.items} cancelTo={location.pathname + location.search} submissionKey={actionData.key} />
      ) : null}
      {actionData && "step" in actionData && actionData.step === "error" ? (
        <p role="alert" className="mb-4 text-danger">
          {actionData.message}
        </p>
      ) : null}
      <BulkBar selectedCount={selected.size} hydrated={hydrated} folders={folders} perms={perms} submissionKey={bulkKey} />
      <p className="my-2 text-sm opacity-70">{total} file(s)</p>
      {view === "grid" ? (
        <FileGrid rows={rows} tile={tile} selected={selected} onToggle={toggle} emptyText={noFilesText(filtered)} />
      ) : (
        <FileTable
          rows={rows}
          sort={{ key: query.sort, dir: query.dir }}
          sortHref={sortHref}
          selected={selected}
          onToggle={toggle}
          onToggleAll={toggleAll}
          emptyText={noFilesText(filtered)}
        />
      )}
      <div className="mt-4">
        <Pager page={query.page} pageCount={pageCount} href={(p) => href({ page: String(p) })} />
      </div>
    </section>
  );
}

export function meta() {
  return [{ title: "All files" }];
}
