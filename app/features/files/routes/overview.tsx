import { Form, Link } from "react-router";
import { RefreshWhile } from "~/components/refresh-while";
import { buttonClass, SubmitButton } from "~/components/ui/button";
import { StatCards } from "~/components/ui/stat-cards";
import { redirectWithToast } from "~/features/platform/index.server";
import { SubmissionKeyInput } from "~/features/platform";
import { mintSubmissionKey, submitOnce } from "~/features/platform/index.server";
import { formatDate, formatDateTime } from "~/utils/dates";
import { USAGE_CATEGORIES } from "../file-constants";
import { CATEGORY_LABELS, formatBytes, percentUsed } from "../sizes";
import { overview } from "../listing.server";
import { requireModule } from "~/features/auth/index.server";
import { FILE_SCOPES, filePerms, viewerOf } from "../module.server";
import { startUsageRecalculation } from "../usage-recalculation.server";
import { recalculateUsageSchema } from "../schemas";
import type { Route } from "./+types/overview";

export async function loader({ request, context }: Route.LoaderArgs) {
  const { env, tenant, user } = await requireModule(request, context, { module: "files" });
  const viewer = viewerOf(user);
  const perms = filePerms(user);
  const recalcKey = perms.manageAll ? await mintSubmissionKey(env, recalcScope(tenant.id, user.id)) : null;
  return { ...(await overview(env, tenant.id, viewer)), perms, recalcKey };
}

/** Starting a recalculation starts a job: once per submission key. */
const recalcScope = (tenantId: string, userId: string) => ({ tenantId, userId, action: "files.usage-recalculate" });

/** Recalculate usage: only those who manage all files, since it reads every stored object. */
export async function action({ request, context }: Route.ActionArgs) {
  const { env, tenant, user } = await requireModule(request, context, {
    module: "files",
    scope: FILE_SCOPES.manageAll,
    message: "You do not have permission to recalculate storage usage",
  });
  const form = await request.formData();
  const parsed = recalculateUsageSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) return redirectWithToast(env, "/files/overview", { type: "error", title: "Unknown action" });
  const sent = await submitOnce(env, form, recalcScope(tenant.id, user.id), (claim) =>
    startUsageRecalculation(env, tenant.id, { id: user.id, email: user.email }, { claim }),
  );
  if (sent.kind === "refused" || sent.kind === "pending") return redirectWithToast(env, "/files/overview", { type: "error", title: sent.message });
  const started = sent.result;
  return redirectWithToast(env, "/files/overview", {
    type: "info",
    title: started.created ? "Recalculating storage usage..." : "A recalculation is already running",
  });
}

/** Dashboard Overview: the tenant's real storage use by category, the last 30 days, the newest files. */
// eslint-disable-next-line max-lines-per-function -- one page read top to bottom, a little over the limit; a split would only pass the loader data through props
export default function Overview({ loaderData }: Route.ComponentProps) {
  const { usage, activity, newest, perms, lastCalculated, usageJob, recalcKey } = loaderData;
  const pct = percentUsed(usage.used, usage.cap);
  const recalculating = usageJob?.state === "running";
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
        <p className="mt-1 text-sm opacity-80" data-testid="usage-calculated">
          Last recalculated from storage: {formatDateTime(lastCalculated)}
        </p>
        <RefreshWhile running={recalculating} seconds={2} token={usageJob} />
        {recalculating ? (
          <p role="status" className="text-sm" data-testid="usage-recalculating">
            Recalculating storage usage...
          </p>
        ) : usageJob?.state === "failed" ? (
          <p role="alert" className="text-sm text-danger">
            The last recalculation failed. Please try again.
          </p>
        ) : null}
        {perms.manageAll ? (
          <Form method="post" className="mt-2">
            <input type="hidden" name="intent" value="recalculate-usage" />
            {recalcKey ? <SubmissionKeyInput value={recalcKey} /> : null}
            <SubmitButton variant="secondary" pendingText="Starting..." disabled={recalculating}>
              Recalculate usage
            </SubmitButton>
          </Form>
        ) : null}
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
