import { Link } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { StatCards } from "~/components/ui/stat-cards";
import { formatDate } from "~/utils/dates";
import { USAGE_CATEGORIES } from "../file-constants";
import { CATEGORY_LABELS, formatBytes, percentUsed } from "../file-rules";
import { overview } from "../files.server";
import { filePerms, requireFiles } from "../module.server";
import type { Route } from "./+types/overview";

export async function loader({ request, context }: Route.LoaderArgs) {
  const { env, tenant, user, viewer } = await requireFiles(request, context);
  return { ...(await overview(env, tenant.id, viewer)), perms: filePerms(user) };
}

/** Dashboard Overview: the tenant's real storage use by category, the last 30 days, the newest files. */
export default function Overview({ loaderData }: Route.ComponentProps) {
  const { usage, activity, newest, perms } = loaderData;
  const pct = percentUsed(usage.used, usage.cap);
  return (
    <section className="space-y-6">
      <div className="flex items-center justify-between">
        <h1 className="text-2xl font-semibold">Dashboard Overview</h1>
        <div className="flex gap-2">
          <Link to="/files/all" className={buttonClass("secondary")}>
            Browse
          </Link>
          {perms.upload ? (
            <Link to="/files/upload" className={buttonClass("primary")}>
              Upload File
            </Link>
          ) : null}
        </div>
      </div>
      <section aria-labelledby="storage-title">
        <h2 id="storage-title" className="text-lg font-semibold">
          Storage
        </h2>
        <p data-testid="storage-meter">
          {formatBytes(usage.used)} of {formatBytes(usage.cap)} ({pct}%)
        </p>
        <progress max={100} value={pct} className="w-full" aria-label="Storage used" />
        <ul className="mt-2 grid grid-cols-2 gap-1 text-sm sm:grid-cols-3">
          {USAGE_CATEGORIES.map((c) => (
            <li key={c} data-category={c}>
              {CATEGORY_LABELS[c]}: {formatBytes(usage.categories[c] ?? 0)}
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="activity-title">
        <h2 id="activity-title" className="text-lg font-semibold">
          Last 30 days
        </h2>
        <StatCards
          cards={[
            { label: "Uploads", value: activity.uploads },
            { label: "Shared", value: activity.shared },
            { label: "Deleted", value: activity.deleted },
            { label: "Size added", value: formatBytes(activity.totalSizeAdded) },
          ]}
        />
      </section>
      <section aria-labelledby="recent-title">
        <h2 id="recent-title" className="text-lg font-semibold">
          Recent files
        </h2>
        {newest.length === 0 ? (
          <p className="opacity-70">No files yet.</p>
        ) : (
          <ul className="text-sm">
            {newest.map((f) => (
              <li key={f.id}>
                <Link to={`/files/file/${f.id}`} className="underline">
                  {f.name}
                </Link>{" "}
                · {formatBytes(f.size)} · {formatDate(f.createdAt)}
              </li>
            ))}
          </ul>
        )}
      </section>
    </section>
  );
}

export function meta() {
  return [{ title: "Dashboard Overview" }];
}
