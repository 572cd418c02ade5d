// The calendar with JavaScript: the event form's date-time picker (pick a day and 14:30, confirm,
// save, and the event is at 14:30 London time in summer and in winter; Cancel, Escape and Now;
// the keyboard; axe on the open dialog) and the sideways swipe between periods on a phone.
/* global document, Touch, TouchEvent */ // used inside page.evaluate callbacks, which run in the browser
import { AxeBuilder } from "@axe-core/playwright";
import { ACCOUNTS, RUN, expect, expectToast, newContext, newPage, scenario, signIn, tenantUrl, waitForHydration } from "./helpers.mjs";
import { PHONE } from "./page-checks.mjs";
import { chooseInPicker, formTimes, longDay, openPicker, pickerField, pickDateTime, plusDays } from "./schedule-steps.mjs";

/**
 * Waits until no CSS transition (or other finite animation) is running. axe reads each colour as it
 * is at that moment: right after a theme switch, or after a key press has chosen an hour, the
 * buttons' colours are halfway through their transition, neither the old nor the new, and their
 * contrast was judged on that (a failure seen now and then on a busy machine).
 */
async function transitionsSettled(page) {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getComputedTiming().endTime !== Infinity)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
}

/** The open dialog has no serious or critical axe violation, in the light and the dark theme. */
async function expectDialogPassesAxe(page, label) {
  for (const colorScheme of ["light", "dark"]) {
    await page.emulateMedia({ colorScheme });
    await transitionsSettled(page);
    const { violations } = await new AxeBuilder({ page }).include("dialog[open]").analyze();
    const serious = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
    expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`).join("; "), `${label}, ${colorScheme}`).toBe("");
  }
  await page.emulateMedia({ colorScheme: "light" });
}

/** Opens a new event on `day` with the picker in place of the native inputs. */
async function newEventWithPicker(page, day) {
  await page.goto(tenantUrl("acme", `/schedule/new?date=${day}`));
  await waitForHydration(page, true);
  await pickerField(page, "Start").waitFor();
}

/**
 * Creates an event through the picker: a day in the next week at 14:30, confirmed and saved; it
 * shows at 14:30 in the day view (London time), the end having followed the start.
 */
async function createAt1430(page, { from, to, season }) {
  await newEventWithPicker(page, from);
  expect(await pickerField(page, "Start").textContent(), "default start").toBe(`${from} 09:00`);
  expect(await pickerField(page, "End").textContent(), "default end").toBe(`${from} 10:00`);
  const title = `Picker ${season} ${RUN}`;
  await page.getByLabel("Title (required)").fill(title);
  await pickDateTime(page, "Start", to, "14:30");
  expect(await pickerField(page, "Start").textContent(), "start field").toBe(`${to} 14:30`);
  // The end followed the start, keeping the hour.
  expect(JSON.stringify(await formTimes(page)), "sent times").toBe(JSON.stringify({ startDate: to, startTime: "14:30", endDate: to, endTime: "15:30" }));
  await page.getByLabel("Visibility").selectOption({ label: "Entire organisation" });
  await page.getByRole("button", { name: "Create event" }).click();
  await expectToast(page, "Event created");
  await page.waitForURL((u) => u.searchParams.get("view") === "day" && u.searchParams.get("date") === to);
  const chip = page.getByRole("link", { name: new RegExp(`^14:30 ${title}`) });
  await chip.waitFor();
  // In the 14:00 row of the day.
  expect(await page.locator("li", { has: chip }).first().textContent(), "row").toMatch(/^14:00/);
  await chip.click();
  await page.getByRole("heading", { level: 1, name: "Edit Event" }).waitFor();
  await waitForHydration(page, true);
  expect(await pickerField(page, "Start").textContent(), "saved start").toBe(`${to} 14:30`);
}

scenario(
  "with JavaScript the date-time picker sets the start: a day in another week and 14:30, confirmed and saved, is 14:30 London time in summer (BST) and winter (GMT), whatever the device's time zone",
  async ({ browser }) => {
    // A device in New Zealand: what is written back is still the London wall-clock time picked.
    const context = await newContext(browser, true, { timezoneId: "Pacific/Auckland" });
    try {
      const page = await newPage(context);
      await signIn(page, { email: ACCOUNTS.acmeLead, js: true });
      await createAt1430(page, { from: "2027-07-06", to: "2027-07-14", season: "summer" });
      await createAt1430(page, { from: "2027-12-01", to: "2027-12-08", season: "winter" });
    } finally {
      await context.close();
    }
  },
  { modes: [true], timeout: 60_000 },
);

scenario(
  "the picker is a keyboard-operable dialog: focus on the chosen day, arrows move it, Enter picks it, Escape and Cancel leave the field as it was, and axe passes light and dark",
  async ({ page }) => {
    await signIn(page, { email: ACCOUNTS.acmeLead, js: true });
    await page.setViewportSize(PHONE);
    const day = "2027-03-03";
    await newEventWithPicker(page, day);
    const field = pickerField(page, "Start");
    let dialog = await openPicker(page, "Start");
    // Monday first, Mo to Su; focus on the field's day; the Date tab shown.
    expect((await dialog.locator("thead th").allTextContents()).join(" "), "weekday headers").toBe("Mo Tu We Th Fr Sa Su");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label")), "focus").toBe(longDay(day));
    expect(await dialog.getByRole("tab", { name: "Date" }).getAttribute("aria-selected"), "Date tab").toBe("true");
    await expectDialogPassesAxe(page, "Date tab");
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width <= PHONE.width, `fits ${PHONE.width} px (${width})`).toBe(true);
    // Down a week, right a day, Enter: 11 March; the Time tab, focus on the chosen hour.
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowRight");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label")), "arrows").toBe(longDay(plusDays(day, 8)));
    await page.keyboard.press("Enter");
    expect(await dialog.getByRole("tab", { name: "Time" }).getAttribute("aria-selected"), "Time tab").toBe("true");
    expect(await page.evaluate(() => document.activeElement?.textContent), "focus on the hour").toBe("09");
    await page.keyboard.press("ArrowRight");
    expect(await dialog.getByRole("radio", { name: "10", exact: true }).getAttribute("aria-checked"), "arrow chooses the hour").toBe("true");
    await expectDialogPassesAxe(page, "Time tab");
    // Escape is Cancel: nothing changes, focus back on the field.
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "hidden" });
    expect(await field.textContent(), "after Escape").toBe(`${day} 09:00`);
    expect(await page.evaluate(() => document.activeElement?.id), "focus returns").toBe("eventStart");
    // Cancel: the same.
    dialog = await openPicker(page, "Start");
    await chooseInPicker(dialog, "2027-04-20", "14:30");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "hidden" });
    expect(await field.textContent(), "after Cancel").toBe(`${day} 09:00`);
    expect(JSON.stringify(await formTimes(page)), "sent after Cancel").toBe(
      JSON.stringify({ startDate: day, startTime: "09:00", endDate: day, endTime: "10:00" }),
    );
  },
  { modes: [true] },
);

/** London now, rounded to the nearest quarter hour: 'yyyy-MM-dd HH:mm'. */
function londonNowRounded(ms) {
  const q = 15 * 60_000;
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-GB", {
      timeZone: "Europe/London",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    })
      .formatToParts(new Date(Math.round(ms / q) * q))
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`;
}

scenario(
  "Now fills the current London time, rounded to the picker's 15 minutes, once confirmed; an end before the start is refused next to End, the picked times kept",
  async ({ page }) => {
    await signIn(page, { email: ACCOUNTS.acmeLead, js: true });
    await newEventWithPicker(page, "2027-01-04");
    const dialog = await openPicker(page, "End");
    const before = londonNowRounded(Date.now());
    await dialog.getByRole("button", { name: "Now" }).click();
    await dialog.getByRole("button", { name: "Confirm" }).click();
    const after = londonNowRounded(Date.now());
    const shown = await pickerField(page, "End").textContent();
    expect([before, after].includes(shown), `Now: ${shown}, expected ${before}`).toBe(true);
    expect(Number(shown.slice(14, 16)) % 15, "on the step").toBe(0);
    // Now is before the start (in 2027): the message is next to End, and what was picked is kept.
    await page.getByLabel("Title (required)").fill(`Ends too soon ${RUN}`);
    await page.getByRole("button", { name: "Create event" }).click();
    const error = page.locator("#eventEnd-error");
    await error.waitFor();
    expect(await error.textContent(), "error").toBe("The end must be after the start");
    expect(await pickerField(page, "End").getAttribute("aria-describedby"), "tied to the field").toBe("eventEnd-error");
    expect(await pickerField(page, "End").textContent(), "kept").toBe(shown);
    expect(await pickerField(page, "Start").textContent(), "start kept").toBe("2027-01-04 09:00");
  },
  { modes: [true] },
);

/** A touch drag on `el` from (x0, y0) by (dx, dy), in steps, as a finger makes it. */
async function drag(locator, { x0, y0, dx, dy }) {
  await locator.evaluate(
    (el, d) => {
      const at = (x, y) => new Touch({ identifier: 1, target: el, clientX: x, clientY: y });
      const fire = (type, t) =>
        el.dispatchEvent(new TouchEvent(type, { bubbles: true, cancelable: true, touches: type === "touchend" ? [] : [t], changedTouches: [t] }));
      fire("touchstart", at(d.x0, d.y0));
      for (let i = 1; i <= 5; i++) fire("touchmove", at(d.x0 + (d.dx * i) / 5, d.y0 + (d.dy * i) / 5));
      fire("touchend", at(d.x0 + d.dx, d.y0 + d.dy));
    },
    { x0, y0, dx, dy },
  );
}

scenario(
  "on a 390 px phone a sideways swipe over 15% of the width moves the view one period; a short or vertical swipe does not",
  async ({ browser }) => {
    const context = await newContext(browser, true, { viewport: PHONE, hasTouch: true, isMobile: true });
    try {
      const page = await newPage(context);
      await signIn(page, { email: ACCOUNTS.acmeLead, js: true });
      const start = "2027-05-12";
      await page.goto(tenantUrl("acme", `/schedule?view=week&date=${start}`));
      await waitForHydration(page, true);
      await page.locator("[data-schedule-view][data-gestures='on']").waitFor();
      const grid = page.locator("[data-period]");
      const dateNow = () => new URL(page.url()).searchParams.get("date");
      const stays = async (what) => {
        await page.waitForTimeout(400);
        expect(dateNow(), what).toBe(start);
      };
      // 40 px is under 15% of 390 (58.5 px): no move. Mostly vertical: a scroll, not a move.
      await drag(grid, { x0: 300, y0: 300, dx: -40, dy: 0 });
      await stays("short swipe");
      await drag(grid, { x0: 200, y0: 500, dx: -70, dy: -200 });
      await stays("vertical swipe");
      // Right to left, 150 px: the next week.
      await drag(grid, { x0: 320, y0: 300, dx: -150, dy: 8 });
      await page.waitForURL((u) => u.searchParams.get("date") === plusDays(start, 7));
      await page.locator(`[data-schedule-view='week'][data-date='${plusDays(start, 7)}']`).waitFor();
      // Left to right: back one week.
      await drag(page.locator("[data-period]"), { x0: 60, y0: 300, dx: 150, dy: -8 });
      await page.waitForURL((u) => u.searchParams.get("date") === start);
      await page.locator(`[data-schedule-view='week'][data-date='${start}']`).waitFor();
      // In the day view one swipe is one day.
      await page.goto(tenantUrl("acme", `/schedule?view=day&date=${start}`));
      await waitForHydration(page, true);
      await page.locator("[data-schedule-view][data-gestures='on']").waitFor();
      await drag(page.locator("[data-period]"), { x0: 320, y0: 300, dx: -150, dy: 0 });
      await page.waitForURL((u) => u.searchParams.get("date") === plusDays(start, 1));
      expect(new URL(page.url()).searchParams.get("view"), "still a day").toBe("day");
    } finally {
      await context.close();
    }
  },
  { modes: [true] },
);
