// Team chat (issue 30): the room works as a plain page without JavaScript (post, redirect to the
// newest messages, Refresh), and with JavaScript two people chat live over the room's socket.
import { ACCOUNTS, expect, newContext, newPage, RUN, scenario, signIn, tenantUrl, waitForHydration } from "./helpers.mjs";

async function openRoom(page, name) {
  await page.goto(tenantUrl("acme", "/chat"));
  await page.getByRole("heading", { level: 1, name: "Chats" }).waitFor();
  await page
    .getByRole("link", { name: new RegExp(`^${name}`) })
    .first()
    .click();
  await page.getByTestId("room-name").filter({ hasText: name }).waitFor();
}

scenario(
  "chat without JavaScript: the room is a page with a message form and a Refresh link",
  async ({ page, js }) => {
    await signIn(page, { email: ACCOUNTS.acmeStaff, js });
    await openRoom(page, "Riverside site team");
    expect(await page.getByTestId("message").count(), "the morning's messages").toBeTruthy();
    const text = `Gate 2 padlock replaced (${RUN})`;
    await page.getByLabel("Message", { exact: true }).fill(text);
    await page.getByRole("button", { name: "Send", exact: true }).click();
    await page.waitForURL((u) => u.hash === "#latest");
    await page.getByTestId("message").filter({ hasText: text }).waitFor();
    expect(await page.getByLabel("Message", { exact: true }).inputValue(), "form emptied").toBe("");
    await page.getByTestId("refresh").click();
    await page.getByTestId("message").filter({ hasText: text }).waitFor();

    // Editing and deleting one's own message: a link to a form page, then back to the room.
    const mine = page.getByTestId("message").filter({ hasText: text });
    await mine.getByRole("link", { name: /^Edit your message/ }).click();
    await page.getByRole("heading", { level: 1, name: "Edit message" }).waitFor();
    const edited = `Gate 2 padlock and chain replaced (${RUN})`;
    await page.getByLabel("Message", { exact: true }).fill(edited);
    await page.getByRole("button", { name: "Save", exact: true }).click();
    const after = page.getByTestId("message").filter({ hasText: edited });
    await after.filter({ hasText: "(edited)" }).waitFor();
    await after.getByRole("link", { name: /^Delete your message/ }).click();
    await page.getByRole("heading", { level: 1, name: "Delete this message?" }).waitFor();
    await page.getByRole("button", { name: "Delete message", exact: true }).click();
    await page.getByTestId("room-name").filter({ hasText: "Riverside site team" }).waitFor();
    expect(await page.getByTestId("message").filter({ hasText: edited }).count(), "deleted message's text gone").toBe(0);

    // Attaching files without JavaScript: the typed text goes along to a page that searches Files.
    await page.getByLabel("Message", { exact: true }).fill(`Drawings for Block B (${RUN})`);
    await page.getByRole("button", { name: "Attach files…", exact: true }).click();
    await page.getByRole("heading", { level: 1, name: "Attach files" }).waitFor();
    expect(await page.getByLabel("Message", { exact: true }).inputValue(), "text kept").toBe(`Drawings for Block B (${RUN})`);
    await page.getByRole("link", { name: "Back to the chat" }).click();
    await page.getByTestId("room-name").filter({ hasText: "Riverside site team" }).waitFor();

    // The module's own section bar, like other modules.
    const sections = page.getByRole("navigation", { name: "Chat sections" });
    await sections.getByRole("link", { name: "New group" }).click();
    await page.getByRole("heading", { level: 1, name: "Create a group" }).waitFor();
    await sections.getByRole("link", { name: "Chats" }).click();
    await page.getByRole("heading", { level: 1, name: "Chats" }).waitFor();
  },
  { modes: [false] },
);

scenario(
  "chat with JavaScript: two people in a direct chat see each other's messages live",
  async ({ page, browser, js }) => {
    await signIn(page, { email: ACCOUNTS.acmeStaff, js });
    const other = await newContext(browser, js);
    try {
      const lead = await newPage(other);
      await signIn(lead, { email: ACCOUNTS.acmeLead, js });
      await openRoom(page, "Liam Lead");
      await openRoom(lead, "Sam Staff");
      await waitForHydration(page, js);
      await waitForHydration(lead, js);
      await page.locator("[data-testid=live-status][data-status=live]").waitFor();
      await lead.locator("[data-testid=live-status][data-status=live]").waitFor();

      const ask = `Can you stay till 4? (${RUN})`;
      await lead.getByLabel("Message", { exact: true }).fill(ask);
      await lead.getByRole("button", { name: "Send", exact: true }).click();
      // Sent over the socket: the page did not navigate, and the other person sees it without reloading.
      await page.getByTestId("message").filter({ hasText: ask }).waitFor();
      expect(new URL(lead.url()).hash, "no form post").toBe("");
      // Long enough for a second copy (a form post beside the socket send) to have arrived.
      await lead.waitForTimeout(1500);
      expect(await lead.getByTestId("message").filter({ hasText: ask }).count(), "shown once to the sender").toBe(1);
      expect(await page.getByTestId("message").filter({ hasText: ask }).count(), "shown once to the other person").toBe(1);

      const reply = `Yes, no problem (${RUN})`;
      await page.getByLabel("Message", { exact: true }).fill(reply);
      await lead.getByTestId("typing").filter({ hasText: "Sam Staff is typing" }).waitFor();
      await page.getByRole("button", { name: "Send", exact: true }).click();
      await lead.getByTestId("message").filter({ hasText: reply }).waitFor();
      await page.waitForTimeout(1500);
      expect(await page.getByTestId("message").filter({ hasText: reply }).count(), "no duplicate").toBe(1);
      expect(await lead.getByTestId("message").filter({ hasText: reply }).count(), "no duplicate for the other person").toBe(1);

      // With JavaScript, "Attach files…" opens a small picker in the room instead of leaving it.
      await page.getByRole("button", { name: "Attach files…", exact: true }).click();
      const picker = page.getByTestId("file-picker");
      await picker.waitFor();
      await picker.getByRole("button", { name: "Search", exact: true }).click();
      await picker
        .getByText(/No files found\.|KB|MB| B$/)
        .first()
        .waitFor();
      expect(new URL(page.url()).pathname.endsWith("/attach"), "stayed in the room").toBe(false);
      await picker.getByRole("button", { name: "Close", exact: true }).click();
    } finally {
      await other.close();
    }
  },
  { modes: [true], timeout: 45_000 },
);
