// Steps the calendar's browser tests share: the event form's date-time picker (with JavaScript).
import { expect } from "./helpers.mjs";

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

/** A date `days` after `ymd` (calendar arithmetic, no time zone). */
export const plusDays = (ymd, days) => new Date(Date.parse(`${ymd}T12:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** 'Monday 12 July 2027': a day button's name in the picker. */
export function longDay(ymd) {
  const d = new Date(`${ymd}T12:00:00Z`);
  return `${WEEKDAYS[d.getUTCDay()]} ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

const monthTitle = (ymd) => `${MONTHS[Number(ymd.slice(5, 7)) - 1]} ${ymd.slice(0, 4)}`;

/** The read-only field ('Start' or 'End') that opens the picker. */
export const pickerField = (page, label) => page.getByRole("button", { name: new RegExp(`^${label} `) });

/** Opens the picker of the 'Start' or 'End' field; answers its dialog. */
export async function openPicker(page, label) {
  await pickerField(page, label).click();
  const dialog = page.getByRole("dialog", { name: `${label} date and time` });
  await dialog.waitFor();
  return dialog;
}

/** In an open picker: the month of `ymd` (by Previous / Next month), that day, then hours and minutes on the Time tab. */
export async function chooseInPicker(dialog, ymd, time) {
  const heading = dialog.getByRole("heading", { level: 3 });
  for (let i = 0; i < 36 && (await heading.textContent()) !== monthTitle(ymd); i++) {
    const shown = await heading.textContent();
    const [name, year] = shown.split(" ");
    const later = Number(year) * 12 + MONTHS.indexOf(name) < Number(ymd.slice(0, 4)) * 12 + Number(ymd.slice(5, 7)) - 1;
    await dialog.getByRole("button", { name: later ? "Next month" : "Previous month" }).click();
  }
  await dialog.getByRole("button", { name: longDay(ymd), exact: true }).click();
  // Choosing a day moves to the Time tab.
  expect(await dialog.getByRole("tab", { name: "Time" }).getAttribute("aria-selected"), "Time tab after a day").toBe("true");
  await dialog
    .getByRole("radiogroup", { name: "Hour" })
    .getByRole("radio", { name: time.slice(0, 2), exact: true })
    .click();
  await dialog
    .getByRole("radiogroup", { name: "Minutes" })
    .getByRole("radio", { name: time.slice(3, 5), exact: true })
    .click();
}

/** Sets the 'Start' or 'End' field through its picker and confirms. */
export async function pickDateTime(page, label, ymd, time) {
  const dialog = await openPicker(page, label);
  await chooseInPicker(dialog, ymd, time);
  await dialog.getByRole("button", { name: "Confirm" }).click();
  await dialog.waitFor({ state: "hidden" });
}

/** What the form will send for start and end (hidden inputs with JavaScript, the native ones without). */
export async function formTimes(page) {
  const value = (name) => page.locator(`form [name='${name}']`).inputValue();
  return { startDate: await value("startDate"), startTime: await value("startTime"), endDate: await value("endDate"), endTime: await value("endTime") };
}
