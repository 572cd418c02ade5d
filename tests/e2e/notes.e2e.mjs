// Notes (issue 28), signed in as admin@acme.test (Acme has the Notes module): write a note with
// tags, pin it, share it, find it by search, move it to the trash and restore it, with JavaScript
// and without (every step is a plain form post answered by the server).
import { expect, expectToast, RUN, scenario, signIn, tenantUrl, waitForHydration } from "./helpers.mjs";

scenario("notes: write, tag, pin, share, search, trash and restore", async ({ page, js }) => {
  await signIn(page, { js });
  const word = `walk${RUN}${js ? "js" : "nojs"}`;
  const title = `Site walk ${word}`;

  await page.goto(tenantUrl("acme", "/notes/new"));
  await page.getByRole("heading", { name: "New Note" }).waitFor();
  await waitForHydration(page, js);
  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Content").fill("Scaffold tags checked on block B.\n\nSnag: door 4 sticks.");
  await page.getByLabel("Tags").fill("Meeting, meeting, Safety");
  await page.getByRole("button", { name: "Save Note", exact: true }).click();
  await page.waitForURL((u) => /^\/notes\/[\w-]+$/.test(u.pathname) && u.pathname !== "/notes/new", { timeout: 15_000 });
  await expectToast(page, "Note created successfully");
  const notePath = new URL(page.url()).pathname;
  expect(await page.getByLabel("Tags").inputValue(), "tags normalised").toBe("meeting, safety");

  await waitForHydration(page, js);
  await page.getByRole("button", { name: "Pin", exact: true }).click();
  await expectToast(page, "Note pinned");

  await waitForHydration(page, js);
  const share = page.getByRole("region", { name: "Share Note" });
  await share.getByRole("checkbox").first().check();
  await share.getByRole("button", { name: "Share", exact: true }).click();
  await expectToast(page, "Note shared successfully");
  expect(await page.getByRole("list", { name: "Shared with" }).locator("li").count(), "one person").toBe(1);

  await page.goto(tenantUrl("acme", `/notes/all?q=${word}`));
  const found = page.locator("[data-note-id]", { has: page.getByRole("link", { name: title }) });
  await found.waitFor();
  expect(await found.locator("mark").first().innerText(), "highlighted match").toBe(word);

  await page.goto(tenantUrl("acme", notePath));
  await waitForHydration(page, js);
  await page.getByRole("button", { name: "Move to trash", exact: true }).click();
  await page.waitForURL((u) => u.pathname === "/notes/all");
  await expectToast(page, "Note moved to trash");

  await page.goto(tenantUrl("acme", "/notes/trash"));
  await waitForHydration(page, js);
  const trashed = page.locator("[data-note-id]", { has: page.getByRole("link", { name: title }) });
  await trashed.getByRole("button", { name: "Restore", exact: true }).click();
  await expectToast(page, "Note restored from trash");
  await page.goto(tenantUrl("acme", "/notes/all"));
  await page.locator("[data-note-id]", { has: page.getByRole("link", { name: title }) }).waitFor();

  // Folders: a new folder (name and colour), its empty state, and the other lists.
  const folderName = `Plot ${RUN} ${js ? "js" : "nojs"}`;
  await page.goto(tenantUrl("acme", "/notes/folders"));
  await waitForHydration(page, js);
  const newFolder = page.getByRole("form", { name: "New Folder" });
  await newFolder.getByLabel("Folder Name").fill(folderName);
  await newFolder.getByRole("button", { name: "Create Folder", exact: true }).click();
  await page.getByRole("heading", { name: folderName, level: 1 }).waitFor();
  await page.getByText("No notes in this folder", { exact: true }).waitFor();
  for (const list of ["/notes/shared", "/notes/bookmarks"]) {
    await page.goto(tenantUrl("acme", list));
    await page.getByTestId("note-count").waitFor();
  }
});
