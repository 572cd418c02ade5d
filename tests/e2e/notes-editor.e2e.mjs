/* global window, localStorage, InputEvent, DataTransfer, ClipboardEvent */ // used inside page.evaluate callbacks, which run in the browser
// The notes editor with JavaScript (issue 28): the rich-text toolbar and its shortcuts, saving
// formatted content that the server keeps (and strips of script), and the drafts this browser keeps
// while writing: autosaved after a second, offered back on return, kept when leaving by Close
// (the 'Draft Saved Automatically' dialog), cleared by saving.
import { expect, expectToast, RUN, scenario, signIn, tenantUrl, waitForHydration } from "./helpers.mjs";

/** The rich editor's editable region, once the lazy editor has replaced the textarea. */
async function richEditor(page) {
  // The textarea carries the same name until the editor's chunk has arrived.
  const editor = page.getByRole("textbox", { name: "Content" }).and(page.locator("[contenteditable='true']"));
  await editor.waitFor();
  return editor;
}

scenario(
  "notes: text typed in the plain field before the editor's code arrives is in the editor that replaces it, and is saved",
  async ({ page }) => {
    await signIn(page);
    // Hold the editor's code until the person has typed in the plain field the page starts with.
    let release;
    const held = new Promise((resolve) => (release = resolve));
    await page.route(/\/assets\/kit-[\w-]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(tenantUrl("acme", "/notes/new"));
    await waitForHydration(page);
    const title = `Typed early ${RUN}`;
    await page.getByLabel("Title").fill(title);
    await page.locator("textarea[name='body']").fill("Typed before the editor came");
    release();
    const editor = await richEditor(page);
    expect(await editor.innerText(), "the editor starts from the typed text").toContain("Typed before the editor came");
    await page.getByRole("button", { name: "Save Note", exact: true }).click();
    await expectToast(page, "Note created successfully");
    // The note's own page holds the editor again, started from what the server saved.
    await page.getByRole("heading", { name: title, level: 1 }).waitFor();
    expect(await (await richEditor(page)).innerText(), "the saved note").toContain("Typed before the editor came");
  },
  { modes: [true] },
);

scenario(
  "notes: format text with the toolbar and shortcuts, save, reload: formatting kept, script stripped",
  async ({ page }) => {
    await signIn(page);
    await page.goto(tenantUrl("acme", "/notes/new"));
    await waitForHydration(page);
    const title = `Formatted ${RUN}`;
    await page.getByLabel("Title").fill(title);
    const editor = await richEditor(page);
    const toolbar = page.getByRole("toolbar", { name: "Formatting" });
    await editor.click();
    await page.keyboard.type("Lift plan");
    await toolbar.getByRole("button", { name: "Heading 2" }).click();
    expect(await toolbar.getByRole("button", { name: "Heading 2" }).getAttribute("aria-pressed"), "heading on").toBe("true");
    await page.keyboard.press("End");
    await page.keyboard.press("Enter");
    await page.keyboard.press("ControlOrMeta+b");
    expect(await toolbar.getByRole("button", { name: "Bold" }).getAttribute("aria-pressed"), "bold on").toBe("true");
    await page.keyboard.type("Crane");
    await page.keyboard.press("ControlOrMeta+b");
    await page.keyboard.type(" arrives Monday");
    await page.keyboard.press("Enter");
    await toolbar.getByRole("button", { name: "Bulleted list" }).click();
    await page.keyboard.type("Gate 2 closed");
    // Ctrl/⌘+K asks for the address; a bare domain becomes https.
    await page.keyboard.press("Enter");
    await page.keyboard.press("Enter");
    page.once("dialog", (d) => void d.accept("example.com/plan"));
    await page.keyboard.press("ControlOrMeta+k");
    await editor.locator("a[href='https://example.com/plan']").waitFor();
    // A paste is cleaned to the note subset before it enters the editor.
    await page.keyboard.press("Enter");
    await page.keyboard.press("Enter");
    await editor.evaluate((el) => {
      const data = new DataTransfer();
      data.setData("text/html", `<b style="color:red">pasted</b><img src="x" onerror="window.__pwned=3"><a href="javascript:alert(1)">bad link</a>`);
      el.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
    });
    const pasted = await editor.innerHTML();
    expect(pasted, "pasted bold kept").toContain("<b>pasted</b>");
    expect(/<img|onerror|javascript:|style=|<a>/.test(pasted), "pasted markup cleaned").toBe(false);
    // Markup a page could try to slip in: the server's allow-list is the authority.
    await editor.evaluate((el) => {
      el.insertAdjacentHTML("beforeend", `<p>tail<img src="x" onerror="window.__pwned=1"></p><script>window.__pwned=2</script>`);
      el.dispatchEvent(new InputEvent("input", { bubbles: true }));
    });
    await page.getByRole("button", { name: "Save Note", exact: true }).click();
    await page.waitForURL((u) => /^\/notes\/[\w-]+$/.test(u.pathname) && u.pathname !== "/notes/new", { timeout: 15_000 });
    await expectToast(page, "Note created successfully");

    await page.reload();
    await waitForHydration(page);
    const saved = await richEditor(page);
    expect(await saved.locator("h2").innerText(), "heading kept").toBe("Lift plan");
    expect(await saved.locator("b, strong").first().innerText(), "bold kept").toBe("Crane");
    expect(await saved.locator("ul li").first().innerText(), "list kept").toBe("Gate 2 closed");
    expect(await saved.locator("img, script").count(), "no image or script").toBe(0);
    expect(await saved.locator("a[href='https://example.com/plan']").count(), "link kept").toBe(1);
    expect(await page.evaluate(() => window.__pwned ?? null), "nothing ran").toBe(null);
  },
  { modes: [true] },
);

scenario(
  "notes: drafts kept in the browser: autosaved, offered back, kept on leaving by Close, cleared by saving",
  async ({ page }) => {
    // Leaving with unsaved words asks first (beforeunload); the test leaves.
    page.on("dialog", (d) => void d.accept());
    await signIn(page);
    await page.goto(tenantUrl("acme", "/notes/new"));
    await waitForHydration(page);
    const title = `Draft ${RUN}`;
    await richEditor(page);
    await page.getByLabel("Title").fill(title);
    await page.getByRole("textbox", { name: "Content" }).click();
    await page.keyboard.type("Snag: door 4 sticks");
    await page.getByTestId("draft-badge").getByText("Draft saved", { exact: true }).waitFor({ timeout: 5_000 });
    const keys = await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith("notesDraft_") && k.endsWith("_new")));
    expect(keys.length, "one draft for the new note").toBe(1);

    // Coming back offers the draft; restoring puts it into the form.
    await page.goto(tenantUrl("acme", "/notes/new"));
    await waitForHydration(page);
    const offer = page.getByRole("region", { name: "Unsaved draft" });
    await offer.getByRole("button", { name: "Restore draft" }).click();
    expect(await page.getByLabel("Title").inputValue(), "title restored").toBe(title);
    expect(await (await richEditor(page)).innerText(), "content restored").toContain("door 4 sticks");

    // Leaving by Close with words in the form keeps the draft and says so.
    await page.getByLabel("Title").fill(`${title} v2`);
    await page.getByRole("link", { name: "Close" }).click();
    const dialog = page.getByRole("dialog", { name: "Draft Saved Automatically" });
    await dialog.waitFor();
    await dialog.getByRole("button", { name: "Keep Editing" }).click();
    await dialog.waitFor({ state: "hidden" });
    expect(new URL(page.url()).pathname, "still editing").toBe("/notes/new");
    await page.getByRole("link", { name: "Close" }).click();
    await dialog.getByRole("button", { name: "Leave Editor" }).click();
    await page.waitForURL((u) => u.pathname === "/notes/all");
    const kept = await page.evaluate((k) => JSON.parse(localStorage.getItem(k) ?? "null"), keys[0]);
    expect(kept?.title, "draft kept on leaving").toBe(`${title} v2`);

    // Saving the note clears its draft.
    await page.goto(tenantUrl("acme", "/notes/new"));
    await waitForHydration(page);
    await page.getByRole("region", { name: "Unsaved draft" }).getByRole("button", { name: "Restore draft" }).click();
    await page.getByRole("button", { name: "Save Note", exact: true }).click();
    await expectToast(page, "Note created successfully");
    expect(await page.evaluate((k) => localStorage.getItem(k), keys[0]), "draft cleared by saving").toBe(null);
  },
  { modes: [true] },
);

scenario(
  "notes: a note's actions menu (the context menu with JavaScript): duplicate, open beside the list; folders expand in list view",
  async ({ page, js }) => {
    await signIn(page, { js });
    const title = `Menu ${RUN} ${js ? "js" : "nojs"}`;
    await page.goto(tenantUrl("acme", "/notes/new"));
    await waitForHydration(page, js);
    await page.getByLabel("Title").fill(title);
    await page.getByLabel("Content").fill("Handover checklist for plot 7");
    await page.getByRole("button", { name: "Save Note", exact: true }).click();
    await expectToast(page, "Note created successfully");

    await page.goto(tenantUrl("acme", `/notes/all?q=${encodeURIComponent(title)}`));
    await waitForHydration(page, js);
    const card = page.locator("[data-note-id]", { has: page.getByRole("link", { name: title, exact: true }) });
    if (js) await card.click({ button: "right" });
    else await card.locator("summary").click();
    await card.getByRole("link", { name: "Open beside the list" }).click();
    const side = page.getByRole("complementary", { name: title });
    await side.waitFor();
    expect(await side.getByTestId("note-content").innerText(), "side view shows the note").toContain("plot 7");

    const again = page.locator("[data-note-id]", { has: page.getByRole("link", { name: title, exact: true }) });
    if (js) await again.click({ button: "right" });
    else await again.locator("summary").click();
    await again.getByRole("button", { name: "Duplicate" }).click();
    await expectToast(page, "Note duplicated");
    await page.getByRole("heading", { name: `${title} (Copy)`, level: 1 }).waitFor();

    // The folders page in list view: each folder expands to its newest notes.
    await page.goto(tenantUrl("acme", "/notes/folders"));
    await waitForHydration(page, js);
    await page.getByRole("form", { name: "Layout" }).getByRole("button", { name: "List" }).click();
    await page.locator("details[data-folder-id]").first().waitFor();
    await page.getByRole("form", { name: "Layout" }).getByRole("button", { name: "Grid" }).click();
    await page.getByRole("list", { name: "Folders" }).waitFor();
  },
);
