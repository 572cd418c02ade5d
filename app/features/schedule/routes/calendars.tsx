import { data, Form, Link } from "react-router";
import { SubmitButton } from "~/components/ui/button";
import { EmptyRow, TBody, TD, TH, THead, TR, Table } from "~/components/ui/table";
import { requireModule } from "~/features/auth/index.server";
import { AppShell } from "~/features/platform";
import { redirectWithToast } from "~/features/platform/index.server";
import { createCalendar, loadCalendarsPage, setCalendarArchived, updateCalendar, type CalendarError } from "../calendars.server";
import { CalendarForm } from "../components/calendar-form";
import { ScheduleNav } from "../components/schedule-nav";
import { CALENDAR_TYPE_LABELS } from "../domain/labels";
import { schedulePerms, viewerOf } from "../module.server";
import { calendarFormValues, parseCalendarForm, type CalendarFormErrors, type CalendarFormValues } from "../schemas";
import type { Route } from "./+types/calendars";

const CALENDAR_ERRORS: Record<CalendarError, { field: keyof CalendarFormValues; message: string }> = {
  calendar_not_found: { field: "name", message: "That calendar no longer exists" },
  person_not_found: { field: "members", message: "Choose members from the list" },
};

export async function loader({ request, context }: Route.LoaderArgs) {
  const { env, tenant, user } = await requireModule(request, context, { module: "schedule", scope: "schedule.view" });
  const perms = schedulePerms(user);
  const params = new URL(request.url).searchParams;
  // Archived calendars are hidden unless asked for (and only to those who manage calendars).
  const showArchived = perms.manageCalendars && params.get("archived") === "1";
  const page = await loadCalendarsPage(env, viewerOf(user, tenant.id), perms.viewAllCalendars, showArchived);
  const editId = perms.manageCalendars ? params.get("edit") : null;
  const editing = editId ? (page.calendars.find((c) => c.id === editId) ?? null) : null;
  return { ...page, perms, showArchived, editing };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { env, tenant, actor, ip } = await requireModule(request, context, { module: "schedule", scope: "schedule.calendars.manage" });
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const who = { ...actor, ip };
  const id = String(form.get("id") ?? "");
  if (intent === "archive" || intent === "restore") {
    const res = await setCalendarArchived(env, tenant.id, who, id, intent === "archive");
    if (!res.ok) throw data("Calendar not found", { status: 404 });
    return redirectWithToast(env, "/schedule/calendars", { type: "success", title: intent === "archive" ? "Calendar archived" : "Calendar restored" });
  }
  if (intent !== "create" && intent !== "update") throw data("Invalid request", { status: 400 });
  const values = calendarFormValues(form);
  const parsed = parseCalendarForm(values);
  if (!parsed.ok) return data({ intent, id, values, errors: parsed.errors }, { status: 400 });
  const res = intent === "create" ? await createCalendar(env, tenant.id, who, parsed.input) : await updateCalendar(env, tenant.id, who, id, parsed.input);
  if (!res.ok) {
    if (res.code === "calendar_not_found") throw data("Calendar not found", { status: 404 });
    const e = CALENDAR_ERRORS[res.code];
    return data({ intent, id, values, errors: { [e.field]: e.message } as CalendarFormErrors }, { status: 400 });
  }
  return redirectWithToast(env, "/schedule/calendars", {
    type: "success",
    title: intent === "create" ? "Calendar created" : "Calendar saved",
    message: parsed.input.name,
  });
}

const EMPTY: CalendarFormValues = { name: "", color: "", type: "", members: [] };

// eslint-disable-next-line max-lines-per-function -- calendar feature, reworked by its owner in parallel
export default function Calendars({ loaderData, actionData }: Route.ComponentProps) {
  const { calendars, people, perms, showArchived, editing } = loaderData;
  const names = new Map(people.map((p) => [p.id, p.name]));
  const failedCreate = actionData?.intent === "create" ? actionData : null;
  const failedUpdate = actionData?.intent === "update" ? actionData : null;
  return (
    <AppShell>
      <ScheduleNav manageCalendars={perms.manageCalendars} manageTeams={perms.manageTeams} />
      <div className="mx-auto max-w-5xl px-4 py-6">
        <h1 className="text-2xl font-semibold">{perms.manageCalendars ? "Calendars" : "My calendars"}</h1>
        {perms.manageCalendars ? (
          <p className="mt-2 text-sm">
            <Link to={showArchived ? "/schedule/calendars" : "/schedule/calendars?archived=1"} className="underline">
              {showArchived ? "Hide archived calendars" : "Show archived calendars"}
            </Link>
          </p>
        ) : null}
        <Table caption="Calendars" scrollClassName="mt-4 overflow-x-auto">
          <THead>
            <TH>Name</TH>
            <TH>Type</TH>
            <TH>Members</TH>
            {perms.manageCalendars ? <TH>Change</TH> : null}
          </THead>
          <TBody>
            {calendars.length === 0 ? <EmptyRow colSpan={perms.manageCalendars ? 4 : 3}>No calendars yet</EmptyRow> : null}
            {calendars.map((c) => (
              <TR key={c.id} data-calendar={c.id}>
                <TD className="font-medium">
                  <span aria-hidden="true" className="mr-2 inline-block h-3 w-3 rounded-full align-middle" style={{ backgroundColor: c.color }} />
                  <Link to={`/schedule?cal=${c.id}`} className="underline">
                    {c.name}
                  </Link>
                  {c.archived ? " (archived)" : ""}
                </TD>
                <TD>{CALENDAR_TYPE_LABELS[c.type]}</TD>
                <TD>{c.members.map((m) => names.get(m) ?? "Former member").join(", ") || "None"}</TD>
                {perms.manageCalendars ? (
                  <TD>
                    <div className="flex flex-wrap gap-2">
                      <Link to={`/schedule/calendars?edit=${c.id}`} className="underline">
                        Edit<span className="sr-only"> {c.name}</span>
                      </Link>
                      <Form method="post">
                        <input type="hidden" name="id" value={c.id} />
                        <SubmitButton variant="link" name="intent" value={c.archived ? "restore" : "archive"} pendingText="Saving...">
                          {c.archived ? "Restore" : "Archive"}
                          <span className="sr-only"> {c.name}</span>
                        </SubmitButton>
                      </Form>
                    </div>
                  </TD>
                ) : null}
              </TR>
            ))}
          </TBody>
        </Table>
        {perms.manageCalendars && (editing || failedUpdate) ? (
          <section className="mt-8" aria-labelledby="edit-calendar">
            <h2 id="edit-calendar" className="text-lg font-semibold">
              Edit calendar
            </h2>
            <div className="mt-3">
              <CalendarForm
                idPrefix="edit"
                intent="update"
                calendarId={failedUpdate?.id ?? editing?.id}
                values={failedUpdate?.values ?? { name: editing!.name, color: editing!.color, type: editing!.type, members: editing!.members }}
                errors={failedUpdate?.errors ?? {}}
                people={people}
                submitLabel="Save calendar"
              />
            </div>
          </section>
        ) : null}
        {perms.manageCalendars ? (
          <section className="mt-8" aria-labelledby="new-calendar">
            <h2 id="new-calendar" className="text-lg font-semibold">
              New calendar
            </h2>
            <div className="mt-3">
              <CalendarForm
                idPrefix="new"
                intent="create"
                values={failedCreate?.values ?? EMPTY}
                errors={failedCreate?.errors ?? {}}
                people={people}
                submitLabel="Create calendar"
              />
            </div>
          </section>
        ) : null}
      </div>
    </AppShell>
  );
}

export function meta() {
  return [{ title: "Calendars" }];
}
