// CIS journeys (issue 5), signed in as admin@acme.test: settings, subcontractors (create,
// search, archive) and the CSV export. Data is unique per run and per mode (one database
// serves both modes).
import { readFile } from "node:fs/promises";
import {
  createSubcontractor,
  expect,
  expectToast,
  londonDate,
  parseCsv,
  RUN,
  scenario,
  searchSubcontractors,
  signIn,
  tenantUrl,
  uniqueUtr,
  waitForHydration,
} from "./helpers.mjs";

const mode = (js) => (js ? "js" : "nojs");

async function openSettings(page, js) {
  await page.goto(tenantUrl("acme", "/cis/settings"));
  await page.getByRole("heading", { name: "CIS Settings", exact: true }).waitFor();
  await waitForHydration(page, js);
}

async function saveSettings(page) {
  await page.getByRole("button", { name: "Save Settings", exact: true }).click();
  const toast = await expectToast(page, "Settings Saved");
  expect(await toast.innerText(), "toast").toContain("Your CIS settings have been saved successfully.");
  expect(new URL(page.url()).pathname, "back on").toBe("/cis/settings");
}

scenario("CIS settings: a changed warning period is saved with 'Settings Saved'", async ({ page, js }) => {
  await signIn(page, { js });
  await openSettings(page, js);
  const field = page.getByLabel("Deadline warning (days)");
  const before = Number(await field.inputValue());
  // A different value each mode, and never the one already stored.
  let next = js ? 7 : 9;
  if (next === before) next += 1;
  await field.fill(String(next));
  await saveSettings(page);
  // What the page shows after the save is what is stored (the form remounts from the loader).
  await page.reload();
  expect(await page.getByLabel("Deadline warning (days)").inputValue(), "warning days after reload").toBe(String(next));
});

scenario("CIS settings: switching the module off shows 'Setup Required'; switching it on restores the dashboard", async ({ page, js }) => {
  await signIn(page, { js });
  try {
    await openSettings(page, js);
    const active = page.getByLabel("CIS module active");
    expect(await active.isChecked(), "seeded settings are active").toBe(true);
    await active.uncheck();
    await saveSettings(page);
    expect(await page.getByLabel("CIS module active").isChecked(), "saved as inactive").toBe(false);

    await page.goto(tenantUrl("acme", "/cis"));
    await page.getByRole("heading", { name: "Setup Required" }).waitFor();
    await page.getByRole("link", { name: "Configure Settings" }).click();
    await page.waitForURL((u) => u.pathname === "/cis/settings");
    await page.getByRole("heading", { name: "CIS Settings", exact: true }).waitFor();
    await waitForHydration(page, js);

    await page.getByLabel("CIS module active").check();
    await saveSettings(page);
    expect(await page.getByLabel("CIS module active").isChecked(), "saved as active").toBe(true);

    await page.goto(tenantUrl("acme", "/cis"));
    await page.getByRole("heading", { name: "CIS Dashboard" }).waitFor();
    expect(await page.getByRole("heading", { name: "Setup Required" }).count(), "no setup panel").toBe(0);
  } finally {
    // Whatever failed above, leave Acme's CIS active for the scenarios that follow.
    if ((await page.getByRole("heading", { name: "CIS Dashboard" }).count()) === 0) {
      await openSettings(page, js).catch(() => {});
      const active = page.getByLabel("CIS module active");
      if ((await active.count()) && !(await active.isChecked())) {
        await active.check();
        await page.getByRole("button", { name: "Save Settings", exact: true }).click();
        await page.waitForLoadState();
      }
    }
  }
});

scenario("a new subcontractor is created, found by search, archived and listed under Archived", async ({ page, js }) => {
  await signIn(page, { js });
  const name = `E2E Archive ${RUN} ${mode(js)}`;
  const { utr } = await createSubcontractor(page, { name, js });

  // Only it matches the search.
  await searchSubcontractors(page, { q: name });
  const rows = page.locator("tbody tr");
  const row = rows.filter({ hasText: name });
  await row.waitFor();
  expect(await rows.count(), "rows matching the search").toBe(1);
  await page.getByText("1 item", { exact: true }).waitFor();
  expect(await row.innerText(), "masked UTR in the row").toContain(`******${utr.slice(-4)}`);
  expect((await page.content()).includes(utr), "plaintext UTR anywhere in the page").toBe(false);
  expect(await row.getByText("Active", { exact: true }).count(), "active badge").toBe(1);

  // Archive, with its confirmation.
  await waitForHydration(page, js);
  let dialogText = null;
  if (js) {
    page.once("dialog", (d) => {
      dialogText = d.message();
      d.accept();
    });
  }
  await row.getByRole("button", { name: "Archive", exact: true }).click();
  if (!js) {
    const confirm = page.getByRole("alertdialog");
    await confirm.getByRole("heading", { name: `Archive ${name}? It can be made active again from its form.` }).waitFor();
    await confirm.getByRole("button", { name: "Confirm", exact: true }).click();
  }
  const toast = await expectToast(page, "Subcontractor archived");
  expect(await toast.innerText(), "archive toast").toContain(name);
  // Back on the list the user was looking at (same search), not an error page.
  const after = new URL(page.url());
  expect(after.pathname, "after archiving").toBe("/cis/subcontractors");
  expect(after.searchParams.get("q"), "search kept").toBe(name);
  await page.locator("tbody tr").filter({ hasText: name }).getByText("Archived", { exact: true }).waitFor();
  if (js) expect(dialogText, "confirm dialog").toBe(`Archive ${name}? It can be made active again from its form.`);

  // Under 'Archived' it is there, marked Archived; under 'Active' it is not.
  await searchSubcontractors(page, { q: name, status: "Archived" });
  const archived = page.locator("tbody tr").filter({ hasText: name });
  await archived.waitFor();
  expect(await archived.getByText("Archived", { exact: true }).count(), "archived badge").toBe(1);
  expect(await archived.getByRole("button", { name: "Archive", exact: true }).count(), "no Archive action on an archived row").toBe(0);
  await searchSubcontractors(page, { q: name, status: "Active" });
  await page.getByText("No subcontractors found").waitFor();
});

scenario("Export downloads today's CSV with masked identifiers only", async ({ page, js }) => {
  await signIn(page, { js });
  const name = `E2E Export ${RUN} ${mode(js)}`;
  const utr = uniqueUtr();
  await createSubcontractor(page, { name, utr, email: `export-${RUN}-${mode(js)}@example.test`, js });
  await waitForHydration(page, js);

  const [download] = await Promise.all([page.waitForEvent("download", { timeout: 15_000 }), page.getByRole("button", { name: "Export", exact: true }).click()]);
  expect(download.suggestedFilename(), "file name").toBe(`cis-subcontractors-${londonDate()}.csv`);
  const raw = await readFile(await download.path());
  expect(raw.subarray(0, 3).toString("hex"), "UTF-8 BOM").toBe("efbbbf");
  const text = raw.subarray(3).toString("utf8");
  const [header, ...lines] = parseCsv(text).filter((r) => r.some((f) => f !== ""));
  expect(header.join(","), "header row").toBe("Name,Type,UTR,NINO,Email,Phone,Status,Verification Rate,Public Body");
  expect(lines.length > 25, `rows: seeded plus created (${lines.length})`).toBeTruthy();

  const utrCol = header.indexOf("UTR");
  for (const line of lines) {
    expect(line.length, `columns in ${JSON.stringify(line)}`).toBe(header.length);
    expect(line[utrCol], `UTR of ${line[0]}`).toMatch(/^(\*{6}\d{4})?$/);
  }
  const mine = lines.find((l) => l[0] === name);
  expect(Boolean(mine), `${name} in the export`).toBe(true);
  expect(mine[utrCol], "its UTR, masked").toBe(`******${utr.slice(-4)}`);
  expect(mine[header.indexOf("Email")], "its e-mail, masked").toBe("e***@e***.test");
  expect(mine[header.indexOf("Status")], "status").toBe("Active");
  expect(mine[header.indexOf("Verification Rate")], "rate").toBe("20%");
  expect(text.includes(utr), "plaintext UTR in the file").toBe(false);
  expect(text.includes(`export-${RUN}`), "plaintext e-mail in the file").toBe(false);
  // The download does not navigate away from the list.
  expect(new URL(page.url()).pathname, "still on").toBe("/cis/subcontractors");
});
