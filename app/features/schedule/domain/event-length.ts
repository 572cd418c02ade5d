/**
 * How long an event may last. A single event is refused beyond 31 days (a month's plant hire or site
 * set-up; longer work is a series or several events), so a view can bound the events it reads by
 * their start: none that began more than 31 days before the view can reach into it. Events saved
 * before this limit are still shown (read through an index of their own).
 */
export const MAX_EVENT_DAYS = 31;
export const MAX_EVENT_MS = MAX_EVENT_DAYS * 86_400_000;

/** Events up to a day long (shifts, night shifts) are most of a calendar; longer ones are read apart. */
export const LONG_EVENT_MS = 86_400_000;

export const EVENT_TOO_LONG = `The end must be no more than ${MAX_EVENT_DAYS} days after the start`;
