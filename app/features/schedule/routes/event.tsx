import { data, Form, Link } from "react-router";
import { buttonClass, SubmitButton } from "~/components/ui/button";
import { Field, inputClass } from "~/components/ui/field";
import { requireModule } from "~/features/auth/index.server";
import { AppShell } from "~/features/platform";
import { redirectWithToast } from "~/features/platform/index.server";
import { ScheduleNav } from "../components/schedule-nav";
import { SCHEDULE_TOASTS } from "../domain/labels";
import { parseRrule } from "../domain/recurrence";
import { isHm, isYmd, londonHm, londonToUtc, londonYmd, todayYmd } from "../domain/time";
import { createEvent, deleteEvent, loadEventPage, mayChangeEvent, updateEvent, type EventDetail, type SaveEventError } from "../events.server";
import { deleteOccurrence, updateOccurrence } from "../occurrences.server";
import { APPLY_TO, isOccurrenceOf, type ApplyTo } from "../domain/series-edit";
import { ApplyToFieldset, DeleteConfirm } from "../components/occurrence-controls";
import { EventAttachments } from "../components/event-attachments";
import { EventTimes } from "../components/event-times";
import { describedBy, EventOptionsFields, RepeatFields } from "../components/event-form-fields";
import { attachFile, detachFile, eventPageFileReads, type AttachError } from "../attachments.server";
import { schedulePerms, viewerOf } from "../module.server";
import { EVENT_TOO_LONG } from "../domain/event-length";
import { eventFormValues, parseEventForm, type EventFormErrors, type EventFormValues } from "../schemas";
import type { Route } from "./+types/event";

const SAVE_ERRORS: Record<SaveEventError, { field: keyof EventFormValues; message: string }> = {
  calendar_not_found: { field: "calendarId", message: "That calendar is not available to you" },
  person_not_found: { field: "users", message: "Choose people from the list" },
  event_not_found: { field: "title", message: "That event no longer exists" },
  event_too_long: { field: "endDate", message: EVENT_TOO_LONG },
};

const notFound = () => data("Event not found", { status: 404 });

/** The occurrence of a series an address or form names (`at`, its UTC start), null for the event as a whole; a start that is no occurrence is a 404. */
function occurrenceAt(raw: string | null, event: EventDetail | null): number | null {
  if (!raw || !event) return null;
  const at = Number(raw);
  if (!isOccurrenceOf(event, at)) throw notFound();
  return at;
}

function applyOf(raw: FormDataEntryValue | null): ApplyTo {
  return (APPLY_TO as readonly string[]).includes(String(raw)) ? (String(raw) as ApplyTo) : "this";
}

/** The form's starting values: the event's, or a new event's (one hour from 09:00 on the chosen day). */
function initialValues(params: URLSearchParams, event: EventDetail | null, at: number | null): EventFormValues {
  if (event) {
    const rule = event.rrule ? parseRrule(event.rrule) : null;
    // An occurrence of a series shows its own times.
    const start = at ?? event.startUtc;
    const end = start + (event.endUtc - event.startUtc);
    return {
      title: event.title,
      startDate: londonYmd(start),
      startTime: londonHm(start),
      endDate: londonYmd(end),
      endTime: londonHm(end),
      type: event.type,
      status: event.status,
      visibility: event.visibility,
      calendarId: event.calendarId ?? "",
      users: event.visibility === "users" ? event.shares : [],
      repeat: rule?.freq ?? "none",
      repeatDays: (rule?.weekdays ?? []).map(String),
      repeatUntil: rule?.until ?? "",
      repeatCount: rule?.count ? String(rule.count) : "",
    };
  }
  const date = params.get("date") ?? "";
  const day = isYmd(date) ? date : todayYmd();
  const time = params.get("time") ?? "";
  const startTime = isHm(time) ? time : "09:00";
  const end = londonToUtc(day, startTime) + 3_600_000;
  return {
    title: "",
    startDate: day,
    startTime,
    endDate: londonYmd(end),
    endTime: londonHm(end),
    type: "shift",
    status: "green",
    visibility: "private",
    calendarId: params.get("cal") ?? "",
    users: [],
    repeat: "none",
    repeatDays: [],
    repeatUntil: "",
    repeatCount: "",
  };
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { env, tenant, user } = await requireModule(request, context, { module: "schedule", scope: params.id ? "schedule.view" : "schedule.create" });
  const perms = schedulePerms(user);
  const viewer = viewerOf(user, tenant.id);
  const url = new URL(request.url);
  const fileq = url.searchParams.get("fileq");
  // Attachments come from Files: none while it is switched off.
  const withFiles = tenant.modules.some((m) => m.id === "files");
  const extras = params.id && withFiles ? eventPageFileReads(env, tenant.id, user, params.id, perms.edit ? fileq : null) : {};
  const page = await loadEventPage(env, viewer, params.id ?? null, perms.viewAllCalendars, extras);
  if (params.id && !page.event) throw notFound();
  const at = occurrenceAt(url.searchParams.get("at"), page.event);
  const mayChange = page.event ? mayChangeEvent(viewer, page.event.createdBy, perms.manageCalendars) : true;
  return {
    isNew: !params.id,
    id: params.id ?? null,
    at,
    repeats: !!page.event?.rrule,
    values: initialValues(url.searchParams, page.event, at),
    calendars: page.calendars.map((c) => ({ id: c.id, name: c.name })),
    people: page.people,
    perms: { ...perms, editThis: page.event ? perms.edit && mayChange : perms.create, deleteThis: !!page.event && perms.delete && mayChange },
    attachments: page.attachments.map(({ id, name, size }) => ({ id, name, size })),
    candidates: page.event && perms.edit && mayChange ? (page.candidates?.map(({ id, name, size }) => ({ id, name, size })) ?? null) : null,
    fileq: fileq ?? "",
    withFiles,
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "save");
  const scope = !params.id ? "schedule.create" : intent === "copy" ? "schedule.create" : intent.startsWith("delete") ? "schedule.delete" : "schedule.edit";
  const { env, tenant, user, actor, ip } = await requireModule(request, context, { module: "schedule", scope });
  const perms = schedulePerms(user);
  const viewer = viewerOf(user, tenant.id);
  const who = { ...actor, ip };
  if (!params.id) {
    const values = eventFormValues(form);
    const parsed = parseEventForm(values);
    if (!parsed.ok) return data({ step: "form" as const, values, errors: parsed.errors }, { status: 400 });
    const res = await createEvent(env, viewer, who, parsed.input, perms.viewAllCalendars);
    if (!res.ok)
      return data(
        { step: "form" as const, values, errors: { [SAVE_ERRORS[res.code].field]: SAVE_ERRORS[res.code].message } as EventFormErrors },
        { status: 400 },
      );
    return redirectWithToast(env, `/schedule?view=day&date=${values.startDate}`, { type: "success", ...SCHEDULE_TOASTS.created });
  }
  const { event } = await loadEventPage(env, viewer, params.id, perms.viewAllCalendars);
  if (!event) throw notFound();
  if (intent === "copy") {
    return redirectWithToast(env, `/schedule?view=month&date=${londonYmd(event.startUtc)}&copy=${event.id}`, { type: "success", ...SCHEDULE_TOASTS.copied });
  }
  if (!mayChangeEvent(viewer, event.createdBy, perms.manageCalendars)) throw data("You may not change this event", { status: 403 });
  const at = occurrenceAt(form.get("at") ? String(form.get("at")) : null, event);
  if (intent === "attach" || intent === "detach") return attachmentAction(env, { viewer, who, user, event, intent, fileId: String(form.get("fileId") ?? "") });
  if (intent === "delete") return { step: "confirm-delete" as const };
  if (intent.startsWith("delete-")) {
    const apply: ApplyTo = intent === "delete-this" ? "this" : intent === "delete-following" ? "following" : "all";
    if (at === null) await deleteEvent(env, viewer, who, event);
    else await deleteOccurrence(env, viewer, who, event, at, apply);
    return redirectWithToast(env, `/schedule?date=${londonYmd(at ?? event.startUtc)}`, { type: "success", title: "Event deleted", message: event.title });
  }
  const values = eventFormValues(form);
  const parsed = parseEventForm(values);
  if (!parsed.ok) return data({ step: "form" as const, values, errors: parsed.errors }, { status: 400 });
  const res =
    at === null
      ? await updateEvent(env, viewer, who, event, parsed.input, perms.viewAllCalendars)
      : await updateOccurrence(env, viewer, who, event, at, applyOf(form.get("apply")), parsed.input, perms.viewAllCalendars);
  if (!res.ok)
    return data(
      { step: "form" as const, values, errors: { [SAVE_ERRORS[res.code].field]: SAVE_ERRORS[res.code].message } as EventFormErrors },
      { status: 400 },
    );
  return redirectWithToast(env, `/schedule/${res.id}`, { type: "success", title: "Event saved", message: parsed.input.title });
}

/** Attaches a file the person may see in Files, or removes one; back to the event with a toast. */
async function attachmentAction(
  env: Env,
  a: {
    viewer: ReturnType<typeof viewerOf>;
    who: Parameters<typeof attachFile>[2];
    user: Parameters<typeof attachFile>[3];
    event: EventDetail;
    intent: "attach" | "detach";
    fileId: string;
  },
) {
  const back = `/schedule/${a.event.id}`;
  if (a.intent === "detach") {
    await detachFile(env, a.viewer, a.who, a.event, a.fileId);
    return redirectWithToast(env, back, { type: "success", title: "Attachment removed" });
  }
  const res = await attachFile(env, a.viewer, a.who, a.user, a.event, a.fileId);
  if (!res.ok) return redirectWithToast(env, back, { type: "error", title: "Error", message: ATTACH_ERRORS[res.code] });
  return redirectWithToast(env, back, { type: "success", title: "File attached", message: res.name });
}

const ATTACH_ERRORS: Record<AttachError, string> = { file_not_found: "That file is not available to you" };

export default function EventPage({ loaderData, actionData }: Route.ComponentProps) {
  const { isNew, id, calendars, people, perms, at, repeats } = loaderData;
  const failed = actionData && "step" in actionData && actionData.step === "form" ? actionData : null;
  const v = failed?.values ?? loaderData.values;
  const errors: EventFormErrors = failed?.errors ?? {};
  const readOnly = !perms.editThis;
  const confirming = actionData && "step" in actionData && actionData.step === "confirm-delete";
  return (
    <AppShell>
      <ScheduleNav manageCalendars={perms.manageCalendars} manageTeams={perms.manageTeams} />
      <div className="mx-auto max-w-2xl px-4 py-6">
        <p className="text-sm">
          <Link to={`/schedule?date=${v.startDate}`} className="underline">
            Back to the calendar
          </Link>
        </p>
        <h1 className="mt-2 text-2xl font-semibold">{isNew ? "New Event" : readOnly ? v.title : "Edit Event"}</h1>
        {confirming ? <DeleteConfirm title={v.title} id={id} at={at} repeats={repeats} /> : null}
        <Form method="post" className="mt-4 space-y-4" noValidate>
          {at !== null && !readOnly ? <ApplyToFieldset at={at} /> : null}
          <fieldset disabled={readOnly} className="space-y-4">
            <Field id="title" label="Title (required)" error={errors.title}>
              <input id="title" name="title" required defaultValue={v.title} maxLength={200} className={inputClass} {...describedBy(errors, "title")} />
            </Field>
            <EventTimes values={v} errors={errors} enhance={!readOnly} />
            <p className="text-xs opacity-80">Times are UK time (London).</p>
            <EventOptionsFields values={v} errors={errors} calendars={calendars} people={people} />
            <RepeatFields values={v} errors={errors} />
          </fieldset>
          <div className="flex flex-wrap gap-2">
            {perms.editThis ? (
              <SubmitButton name="intent" value="save" pendingText="Saving...">
                {isNew ? "Create event" : "Save changes"}
              </SubmitButton>
            ) : null}
            {!isNew && perms.create ? (
              <button type="submit" name="intent" value="copy" formNoValidate className={buttonClass("secondary")}>
                Copy event
              </button>
            ) : null}
            {perms.deleteThis ? (
              <button type="submit" name="intent" value="delete" formNoValidate className={buttonClass("danger")}>
                Delete
              </button>
            ) : null}
          </div>
        </Form>
        {isNew || !loaderData.withFiles ? null : (
          <EventAttachments
            attachments={loaderData.attachments}
            candidates={loaderData.candidates}
            query={loaderData.fileq}
            at={at}
            editable={perms.editThis}
          />
        )}
      </div>
    </AppShell>
  );
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: loaderData?.isNew ? "New Event" : (loaderData?.values.title ?? "Event") }];
}
