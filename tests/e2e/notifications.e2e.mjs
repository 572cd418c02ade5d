// The notifications inbox (issue 12, deadline alerts): the shell's bell names the unread count;
// the inbox lists the person's notifications and Mark all as read empties the count, with and
// without JavaScript.
import { ACCOUNTS, expect, scenario, signIn, waitForHydration } from "./helpers.mjs";

const BELL = /^Notifications, (none|\d+\+?) unread$/;

scenario("the shell's bell opens the inbox, and Mark all as read clears the count", async ({ page, js }) => {
  await signIn(page, { slug: "acme", email: ACCOUNTS.acmeAdmin, js });
  const bell = page.getByRole("banner").getByRole("link", { name: BELL });
  await bell.waitFor();
  await bell.click();
  await page.getByRole("heading", { level: 1, name: "Notifications" }).waitFor();
  expect(new URL(page.url()).pathname, "inbox").toBe("/notifications");
  await waitForHydration(page, js);
  const markAll = page.getByRole("button", { name: "Mark all as read" });
  if ((await markAll.count()) > 0) {
    await markAll.click();
    await page.getByTestId("unread-summary").filter({ hasText: "No unread notifications" }).waitFor();
  } else {
    expect(await page.getByTestId("unread-summary").innerText(), "nothing unread").toContain("No unread notifications");
  }
  expect(await page.getByRole("banner").getByRole("link", { name: BELL }).getAttribute("aria-label"), "bell").toBe("Notifications, none unread");
});
