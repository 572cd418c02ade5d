import { useEffect, useRef } from "react";
import { data, Form, Link, useNavigate } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { inputClass } from "~/components/ui/field";
import { requireModule } from "~/features/auth/index.server";
import { AppShell } from "~/features/platform";
import { redirectWithToast } from "~/features/platform/index.server";
import { ScheduleNav } from "../components/schedule-nav";
import { UserFilter } from "../components/user-filter";
import { DayView, MonthView, WeekView, YearView } from "../components/views";
import { PASTE_REFUSALS, SCHEDULE_TOASTS, TYPE_LABELS, VIEW_LABELS } from "../domain/labels";
import { stepDate, todayYmd, viewTitle, isYmd } from "../domain/time";
import { parseViewQuery, viewHref } from "../domain/view-query";
import { pasteEvent } from "../copy-paste.server";
import { EVENT_TYPES } from "../domain/constants";
import { schedulePerms, viewerOf } from "../module.server";
import { scheduleViewData } from "../view.server";
import { readOnlyEvents } from "../read-only-sources.server";
import { can } from "~/features/auth";
import type { Route } from "./+types/view";

export async function loader({ request, context }: Route.LoaderArgs) {
  const { env, tenant, user } = await requireModule(request, context, { module: "schedule", scope: "schedule.view" });
  const perms = schedulePerms(user);
  const query = parseViewQuery(new URL(request.url).searchParams);
  const modules = tenant.modules.map((m) => m.id);
  const view = await scheduleViewData(env, viewerOf(user, tenant.id), query, perms, ({ start, end }) =>
    readOnlyEvents({ modules, can: (scope) => can(user, scope), rangeStart: start, rangeEnd: end }),
  );
  return { query: { ...query, view: view.view }, perms, today: todayYmd(), ...view };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { env, tenant, user, actor, ip } = await requireModule(request, context, { module: "schedule", scope: "schedule.create" });
  const form = await request.formData();
  const eventId = String(form.get("eventId") ?? "");
  const date = String(form.get("date") ?? "");
  if (form.get("intent") !== "paste" || !isYmd(date)) throw data("Invalid request", { status: 400 });
  const res = await pasteEvent(env, viewerOf(user, tenant.id), { ...actor, ip }, eventId, date, schedulePerms(user).viewAllCalendars);
  if (!res.ok) {
    if (res.code === "event_not_found") throw data("Event not found", { status: 404 });
    return redirectWithToast(env, `/schedule?view=month&date=${date}`, { type: "error", title: "Event not pasted", message: PASTE_REFUSALS[res.code] });
  }
  return redirectWithToast(env, `/schedule?view=day&date=${date}`, { type: "success", ...SCHEDULE_TOASTS.pasted });
}

// eslint-disable-next-line max-lines-per-function -- calendar feature, reworked by its owner in parallel
export default function Schedule({ loaderData }: Route.ComponentProps) {
  const { query: q, perms, today, days, cells, counts, calendars, people, find, more, teams, truncated } = loaderData;
  const root = usePeriodGestures();
  const links = {
    dayHref: (d: string) => viewHref(q, { view: "day", date: d }),
    newHref: perms.create ? (d: string) => `/schedule/new?date=${d}${q.cal && q.cal !== "personal" ? `&cal=${q.cal}` : ""}` : null,
    pasteId: perms.create ? q.copy : null,
    today,
  };
  return (
    <AppShell>
      <ScheduleNav manageCalendars={perms.manageCalendars} manageTeams={perms.manageTeams} />
      <div ref={root} className="mx-auto max-w-7xl px-2 py-4 sm:px-4" data-schedule-view={q.view} data-date={q.date}>
        <div className="flex flex-wrap items-center gap-2">
          <h1 className="mr-auto text-xl font-semibold sm:text-2xl">{viewTitle(q.view, q.date)}</h1>
          {perms.create ? (
            <Link to={links.newHref!(q.date)} className={buttonClass("primary")}>
              Add Event
            </Link>
          ) : null}
        </div>
        <nav aria-label="Calendar navigation" className="mt-3 flex flex-wrap items-center gap-2 text-sm">
          <Link to={viewHref(q, { date: stepDate(q.view, q.date, -1) })} className={buttonClass("secondary")} rel="prev" data-nav="prev">
            Prev
          </Link>
          <Link to={viewHref(q, { date: today })} className={buttonClass("secondary")} data-nav="today">
            Today
          </Link>
          <Link to={viewHref(q, { date: stepDate(q.view, q.date, 1) })} className={buttonClass("secondary")} rel="next" data-nav="next">
            Next
          </Link>
          <span className="flex flex-wrap gap-1" role="group" aria-label="View">
            {(["day", "week", "month", "year"] as const).map((v) => (
              <Link
                key={v}
                to={viewHref(q, { view: v })}
                aria-current={q.view === v ? "page" : undefined}
                className={`rounded-brand px-3 py-1.5 ${q.view === v ? "bg-surface font-semibold" : "hover:bg-surface"}`}
              >
                {VIEW_LABELS[v]}
              </Link>
            ))}
          </span>
          {q.view === "day" ? (
            <Link to={viewHref(q, { hours: q.hours === "9-5" ? "24h" : null })} className="rounded-brand border border-line px-3 py-1.5" data-hours={q.hours}>
              {q.hours === "9-5" ? "24h" : "9-5"}
              <span className="sr-only"> (show {q.hours === "9-5" ? "the whole day" : "working hours"})</span>
            </Link>
          ) : null}
        </nav>
        <Form method="get" action="/schedule" className="mt-3 flex flex-wrap items-end gap-2 text-sm" aria-label="Filters">
          <input type="hidden" name="view" value={q.view} />
          <input type="hidden" name="date" value={q.date} />
          {q.hours === "24h" ? <input type="hidden" name="hours" value="24h" /> : null}
          {q.copy ? <input type="hidden" name="copy" value={q.copy} /> : null}
          <label className="flex flex-col">
            <span className="text-xs">Calendar</span>
            <select name="cal" defaultValue={q.cal ?? ""} className={inputClass}>
              <option value="">All calendars</option>
              <option value="personal">Personal Calendar</option>
              {calendars.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
          </label>
          <label className="flex flex-col">
            <span className="text-xs">Type</span>
            <select name="type" defaultValue={q.type ?? ""} className={inputClass}>
              <option value="">All types</option>
              {EVENT_TYPES.map((t) => (
                <option key={t} value={t}>
                  {TYPE_LABELS[t]}
                </option>
              ))}
            </select>
          </label>
          <UserFilter people={people} user={q.user} who={q.who} find={find} more={more} />
          {perms.editTeam ? (
            <label className="flex flex-col">
              <span className="text-xs">Team</span>
              <select name="team" defaultValue={q.team ?? ""} className={inputClass}>
                <option value="">All teams</option>
                {teams.map((t) => (
                  <option key={t.id} value={t.id}>
                    {t.name}
                  </option>
                ))}
              </select>
            </label>
          ) : null}
          <button type="submit" className={buttonClass("secondary")}>
            Apply filters
          </button>
        </Form>
        {q.copy && perms.create ? (
          <p role="status" className="mt-3 text-sm">
            An event is copied: choose &lsquo;Paste here&rsquo; on a day to paste it.{" "}
            <Link to={viewHref(q, { copy: null })} className="underline">
              Cancel paste
            </Link>
          </p>
        ) : null}
        {truncated ? (
          <p role="status" className="mt-3 text-sm">
            There are too many events to show them all: narrow the view or filter it.
          </p>
        ) : null}
        <div className="mt-4" data-period>
          {q.view === "month" && cells ? <MonthView date={q.date} cells={cells} links={links} /> : null}
          {q.view === "week" && days ? <WeekView date={q.date} days={days} links={links} /> : null}
          {q.view === "day" && days ? <DayView date={q.date} days={days} links={links} hours={q.hours} /> : null}
          {q.view === "year" && counts ? <YearView date={q.date} counts={counts} links={links} /> : null}
        </div>
      </div>
    </AppShell>
  );
}

/** With JavaScript, arrow keys, swipes, wheel moves and double-clicks: a small chunk loaded after hydration. */
function usePeriodGestures() {
  const root = useRef<HTMLDivElement>(null);
  const navigate = useNavigate();
  useEffect(() => {
    let detach: (() => void) | undefined;
    let gone = false;
    void import("../components/period-gestures").then((m) => {
      if (!gone && root.current) detach = m.attachPeriodGestures(root.current, (to) => navigate(to));
    });
    return () => {
      gone = true;
      detach?.();
    };
  }, [navigate]);
  return root;
}

export function meta() {
  return [{ title: "Calendar" }];
}
