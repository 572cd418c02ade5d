import { data, Form } from "react-router";
import { SubmitButton } from "~/components/ui/button";
import { requireModule } from "~/features/auth/index.server";
import { AppShell } from "~/features/platform";
import { ScheduleNav } from "../components/schedule-nav";
import { createFeedToken, feedStatus, revokeFeedToken } from "../feed.server";
import { schedulePerms } from "../module.server";
import type { Route } from "./+types/subscribe";

export async function loader({ request, context }: Route.LoaderArgs) {
  const { env, tenant, user } = await requireModule(request, context, { module: "schedule", scope: "schedule.view" });
  return { active: await feedStatus(env, tenant.id, user.id), perms: schedulePerms(user) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { env, tenant, actor, ip } = await requireModule(request, context, { module: "schedule", scope: "schedule.view" });
  const intent = String((await request.formData()).get("intent") ?? "");
  if (intent === "create") {
    const token = await createFeedToken(env, tenant.id, { ...actor, ip });
    return { url: `${new URL(request.url).origin}/schedule/feed/${token}.ics` };
  }
  if (intent === "revoke") {
    await revokeFeedToken(env, tenant.id, { ...actor, ip });
    return { revoked: true };
  }
  throw data("Invalid request", { status: 400 });
}

export default function Subscribe({ loaderData, actionData }: Route.ComponentProps) {
  const url = actionData && "url" in actionData ? actionData.url : null;
  const active = loaderData.active;
  return (
    <AppShell>
      <ScheduleNav manageCalendars={loaderData.perms.manageCalendars} manageTeams={loaderData.perms.manageTeams} />
      <div className="mx-auto max-w-2xl px-4 py-6">
        <h1 className="text-2xl font-semibold">Subscribe from your phone</h1>
        <p className="mt-2 text-sm">
          A private link that calendar apps (iPhone, Android, Outlook) can subscribe to: it shows the events you can see here, from two months back to a year
          ahead. Anyone with the link can read them, so keep it to yourself; revoke it if it gets out.
        </p>
        {url ? (
          <div className="mt-4 rounded-brand border border-line p-3" role="status">
            <p className="text-sm font-medium">Your subscription link (shown only now):</p>
            <p className="mt-1 text-sm break-all">
              <code data-feed-url>{url}</code>
            </p>
          </div>
        ) : null}
        <p className="mt-4 text-sm">{active ? "You have a subscription link." : "You have no subscription link."}</p>
        <div className="mt-3 flex flex-wrap gap-2">
          <Form method="post">
            <SubmitButton name="intent" value="create" pendingText="Creating...">
              {active ? "Replace my link" : "Create my link"}
            </SubmitButton>
          </Form>
          {active ? (
            <Form method="post">
              <SubmitButton variant="danger" name="intent" value="revoke" pendingText="Revoking...">
                Revoke my link
              </SubmitButton>
            </Form>
          ) : null}
        </div>
      </div>
    </AppShell>
  );
}

export function meta() {
  return [{ title: "Subscribe to the calendar" }];
}
