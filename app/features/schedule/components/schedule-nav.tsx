import { SectionNav } from "~/features/platform";

/** The calendar's own links. */
export function ScheduleNav({ manageCalendars, manageTeams = false }: { manageCalendars: boolean; manageTeams?: boolean }) {
  const links = [
    { to: "/schedule", label: "Calendar", end: true },
    { to: "/schedule/calendars", label: manageCalendars ? "Calendars" : "My calendars" },
    { to: "/schedule/subscribe", label: "Subscribe" },
    ...(manageTeams ? [{ to: "/settings/teams", label: "Teams and sites" }] : []),
  ];
  return <SectionNav title={<p className="text-lg font-semibold">Calendar</p>} label="Calendar sections" links={links} />;
}
