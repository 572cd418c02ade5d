// The calendar (issue 29), with and without JavaScript: navigate the views, create an event, move
// it by editing, copy and paste it to another day, filter by type, and the last view remembered.
import { ACCOUNTS, RUN, expect, expectFitsPhone, expectToast, londonDate, scenario, signIn, tenantUrl, waitForHydration } from "./helpers.mjs";
import { formTimes, pickDateTime } from "./schedule-steps.mjs";

/** A date `days` after `ymd` (calendar arithmetic, no time zone). */
const plusDays = (ymd, days) => new Date(Date.parse(`${ymd}T12:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

scenario("a lead plans an event: create, move by editing, copy and paste, filter and navigate the views", async ({ page, js }) => {
  await signIn(page, { email: ACCOUNTS.acmeLead, js });
  const today = londonDate();
  await page.goto(tenantUrl("acme", `/schedule?view=month&date=${today}`));
  await waitForHydration(page, js);
  await page.getByRole("link", { name: "Add Event" }).waitFor();
  await expectFitsPhone(page, "calendar month");

  // Create: the form opens with the defaults, on the chosen day.
  const day = plusDays(today, 2);
  await page.goto(tenantUrl("acme", `/schedule/new?date=${day}`));
  await waitForHydration(page, js);
  await page.getByRole("heading", { level: 1, name: "New Event" }).waitFor();
  expect((await formTimes(page)).startTime, "default start").toBe("09:00");
  expect((await formTimes(page)).endTime, "default end").toBe("10:00");
  const title = `Crane lift ${RUN} ${js ? "js" : "nojs"}`;
  await page.getByLabel("Title (required)").fill(title);
  await page.getByLabel("Type").selectOption({ label: "Delivery" });
  await page.getByLabel("Visibility").selectOption({ label: "Entire organisation" });
  await page.getByRole("button", { name: "Create event" }).click();
  await expectToast(page, "Event created");
  await page.waitForURL((u) => u.searchParams.get("view") === "day" && u.searchParams.get("date") === day);
  await expectFitsPhone(page, "calendar day");

  // Move it by editing: the next day at 13:15.
  await page
    .getByRole("link", { name: new RegExp(title) })
    .first()
    .click();
  await page.getByRole("heading", { level: 1, name: "Edit Event" }).waitFor();
  await waitForHydration(page, js);
  const moved = plusDays(day, 1);
  if (js) {
    // The date-time picker; the end follows the start.
    await pickDateTime(page, "Start", moved, "13:15");
  } else {
    await page.getByLabel("Start date").fill(moved);
    await page.getByLabel("Start time").fill("13:15");
    await page.getByLabel("End date").fill(moved);
    await page.getByLabel("End time").fill("14:15");
  }
  await page.getByRole("button", { name: "Save changes" }).click();
  await expectToast(page, "Event saved");
  expect(JSON.stringify(await formTimes(page)), "moved").toBe(JSON.stringify({ startDate: moved, startTime: "13:15", endDate: moved, endTime: "14:15" }));

  // Copy, then paste three days later (the page again, without the saved toast over its buttons).
  await page.goto(page.url());
  await waitForHydration(page, js);
  await page.getByRole("button", { name: "Copy event" }).click();
  await expectToast(page, "Event copied");
  const target = plusDays(moved, 3);
  await page.goto(tenantUrl("acme", `/schedule?view=week&date=${target}&copy=${new URL(page.url()).searchParams.get("copy")}`));
  await waitForHydration(page, js);
  await page
    .getByRole("button", { name: new RegExp(`Paste here .*`) })
    .first()
    .waitFor();
  const longTarget = await page.evaluate((d) => {
    const dt = new Date(`${d}T12:00:00Z`);
    return `${dt.toLocaleDateString("en-GB", { weekday: "long", timeZone: "UTC" })} ${dt.getUTCDate()} ${dt.toLocaleDateString("en-GB", { month: "long", timeZone: "UTC" })} ${dt.getUTCFullYear()}`;
  }, target);
  await page.getByRole("button", { name: `Paste here (${longTarget})` }).click();
  await expectToast(page, "Event pasted");
  await page.waitForURL((u) => u.searchParams.get("date") === target);
  await page
    .getByRole("link", { name: new RegExp(title) })
    .first()
    .waitFor();

  // Filter by type: a meeting filter hides the delivery.
  await page.goto(tenantUrl("acme", `/schedule?view=week&date=${target}`));
  await waitForHydration(page, js);
  await page.getByLabel("Type").selectOption({ label: "Meeting" });
  await page.getByRole("button", { name: "Apply filters" }).click();
  await page.waitForURL((u) => u.searchParams.get("type") === "meeting");
  // With JavaScript the address changes before the filtered week has rendered: wait for the rows to go.
  await page
    .getByRole("link", { name: new RegExp(title) })
    .first()
    .waitFor({ state: "detached", timeout: 10_000 })
    .catch(() => {});
  expect(await page.getByRole("link", { name: new RegExp(title) }).count(), "filtered out").toBe(0);

  // Navigate: Next moves one week; Year view; the last view is remembered.
  await page.getByRole("link", { name: "Next" }).click();
  await page.waitForURL((u) => u.searchParams.get("date") === plusDays(target, 7));
  await page.getByRole("link", { name: "Year", exact: true }).click();
  await page.waitForURL((u) => u.searchParams.get("view") === "year");
  await expectFitsPhone(page, "calendar year");
  await page.goto(tenantUrl("acme", "/schedule"));
  expect(await page.locator("[data-schedule-view]").getAttribute("data-schedule-view"), "last view").toBe("year");
});

scenario(
  "with JavaScript, arrow keys and a sideways wheel move between periods, and a double-click on a day opens a new event or pastes a copied one there",
  async ({ page }) => {
    await signIn(page, { email: ACCOUNTS.acmeLead, js: true });
    const start = "2026-03-18";
    await page.goto(tenantUrl("acme", `/schedule?view=week&date=${start}`));
    await waitForHydration(page, true);
    await page.locator("[data-schedule-view][data-gestures='on']").waitFor();
    const dateIs = (d) => (u) => u.searchParams.get("date") === d;

    // Arrow keys: one week on, then back; the view stays a week and the Prev link keeps pace.
    await page.keyboard.press("ArrowRight");
    await page.waitForURL(dateIs(plusDays(start, 7)));
    await page.locator(`[data-schedule-view='week'][data-date='${plusDays(start, 7)}']`).waitFor();
    await page.keyboard.press("ArrowLeft");
    await page.waitForURL(dateIs(start));
    await page.locator(`[data-schedule-view][data-date='${start}']`).waitFor();

    // In a month view an arrow moves a month, to the address of the Prev link.
    await page.getByRole("link", { name: "Month", exact: true }).click();
    await page.locator("[data-schedule-view='month']").waitFor();
    const prev = new URL(await page.locator("a[data-nav='prev']").getAttribute("href"), page.url()).searchParams.get("date");
    await page.keyboard.press("ArrowLeft");
    await page.waitForURL(dateIs(prev));
    await page.locator(`[data-schedule-view='month'][data-date='${prev}']`).waitFor();
    expect(new URL(page.url()).searchParams.get("view"), "still a month").toBe("month");

    // Typing in a field is not navigation.
    await page.locator("select[name='type']").evaluate((el) => el.focus());
    await page.keyboard.press("ArrowRight");
    await page.waitForTimeout(300);
    expect(new URL(page.url()).searchParams.get("date"), "arrow in a field").toBe(prev);

    // A sideways wheel move over the grid goes forward.
    await page.locator("[data-period]").hover();
    const next = new URL(await page.locator("a[data-nav='next']").getAttribute("href"), page.url()).searchParams.get("date");
    await page.mouse.wheel(120, 0);
    await page.waitForURL(dateIs(next));
    await page.locator(`[data-schedule-view='month'][data-date='${next}']`).waitFor();

    // A double-click on a day's empty space opens the new event on that day.
    const day = await page.locator("[data-day]").nth(10).getAttribute("data-day");
    await page.locator(`[data-day='${day}']`).first().dispatchEvent("dblclick");
    await page.waitForURL((u) => u.pathname === "/schedule/new" && u.searchParams.get("date") === day);
    await page.getByRole("heading", { level: 1, name: "New Event" }).waitFor();
    await waitForHydration(page, true);

    // Copy that new event, then a double-click on another day pastes it there.
    const title = `Toolbox talk ${RUN}`;
    await page.getByLabel("Title (required)").fill(title);
    await page.getByRole("button", { name: "Create event" }).click();
    await expectToast(page, "Event created");
    await page
      .getByRole("link", { name: new RegExp(title) })
      .first()
      .click();
    await page.getByRole("heading", { level: 1, name: "Edit Event" }).waitFor();
    await waitForHydration(page, true);
    await page.getByRole("button", { name: "Copy event" }).click();
    await expectToast(page, "Event copied");
    const target = plusDays(day, 2);
    await page.goto(tenantUrl("acme", `/schedule?view=week&date=${target}&copy=${new URL(page.url()).searchParams.get("copy")}`));
    await waitForHydration(page, true);
    await page.locator("[data-schedule-view][data-gestures='on']").waitFor();
    await page.locator(`[data-day='${target}']`).first().dispatchEvent("dblclick");
    await expectToast(page, "Event pasted");
    await page.waitForURL((u) => u.searchParams.get("view") === "day" && u.searchParams.get("date") === target);
    await page
      .getByRole("link", { name: new RegExp(title) })
      .first()
      .waitFor();
  },
  { modes: [true] },
);
