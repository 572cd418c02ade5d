import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Role } from "~/db/schema";
import { decryptSubcontractorField, PAGE_SIZE } from "~/features/cis/subcontractors/subcontractors.server";
import { createTenant } from "../factories";
import { cisStaff as setup, newUtr, seedSub, subForm as validForm } from "../factories/cis";
import {
  alerts,
  attr,
  describedBy,
  field,
  hasField,
  hrefs,
  isChecked,
  linksTo,
  one,
  page,
  pageText,
  parseHtml,
  shownText,
  textOf,
  textsOf,
  valueOf,
} from "../factories/html";
import { SUBMISSION_KEY_MESSAGES } from "~/features/platform/submission-key-codes";
import { mintKey, SUBMISSION_KEY_FIELD, withPageKey } from "../factories/submission-keys";
import { count } from "./auth-helpers";
import { location, toForm, type Browser } from "./http";
import worker from "../../workers/app";

async function row(id: string) {
  return env.DB.prepare("SELECT * FROM cis_subcontractors WHERE id = ?").bind(id).first<
    Record<string, unknown> & {
      active: number;
      deleted_at: number | null;
      verification_rate: number;
      verification_status: string;
      utr_enc: string;
      utr_masked: string;
      nino_enc: string | null;
      tenant_id: string;
      id: string;
    }
  >();
}

/** The raw body: identifiers must not appear anywhere in it, attributes and scripts included. */
const markup = (res: Response) => res.text();

/** Decrypts a raw D1 row's identifier with its own binding (tenant, table, id, field). */
function decrypt(r: Record<string, unknown> | null | undefined, field: "utr" | "nino") {
  if (!r) throw new Error("no row");
  return decryptSubcontractorField(
    env,
    { tenantId: String(r.tenant_id), id: String(r.id), utrEnc: (r.utr_enc as string) ?? null, ninoEnc: (r.nino_enc as string) ?? null },
    field,
  );
}

// ---------------------------------------------------------------------------

/** The submission key a server-rendered confirmation step carries. */
const confirmKey = async (res: Response) => attr(one(await page(res), `[data-confirm] input[name="${SUBMISSION_KEY_FIELD}"]`), "value") ?? "";

describe("subcontractor routes x roles", () => {
  const EXPECT: Record<Role, { write: boolean; unmask: boolean; invite: boolean; export: boolean; import: boolean }> = {
    standard: { write: false, unmask: false, invite: false, export: false, import: false },
    lead: { write: true, unmask: false, invite: false, export: true, import: false },
    // cis.import alone: an import creates subcontractors, so it needs cis.sub.write as well.
    manager: { write: false, unmask: false, invite: true, export: true, import: false },
    admin: { write: true, unmask: true, invite: true, export: true, import: true },
  };

  for (const role of Object.keys(EXPECT) as Role[]) {
    it(`${role}: sees and may do exactly what the bundle allows`, async () => {
      const e = EXPECT[role];
      const { t, u, b } = await setup(role);
      const sub = await seedSub(t, { name: "Matrix Joinery", email: "joiner@example.test", phone: "07700900123" });
      const base = `${t.origin}/cis/subcontractors`;

      const list = await b.get(base);
      expect(list.status, `${role} list`).toBe(200);
      const listHtml = await markup(list);
      const listDoc = parseHtml(listHtml);
      expect(pageText(listDoc)).toContain("Matrix Joinery");
      expect(one(listDoc, '[role="search"] input[name="q"]').getAttribute("placeholder")).toBe("Search subcontractors...");
      // Contact details masked in the list.
      expect(pageText(listDoc)).toContain("j***@e***.test");
      expect(listHtml).not.toContain("joiner@example.test");
      expect(listHtml).not.toContain("07700900123");
      const links = hrefs(listDoc);
      expect(links.includes("/cis/subcontractors/new"), `${role} New`).toBe(e.write);
      expect(hasField(listDoc, "ids"), `${role} checkboxes`).toBe(e.write);
      expect(hasField(listDoc, "selectAll"), `${role} select all`).toBe(e.write);
      expect(links.includes(`/cis/subcontractors/${sub.id}/edit`), `${role} Edit`).toBe(e.write);
      expect(listDoc.querySelector('form input[name="intent"][value="archive"]') !== null, `${role} Archive`).toBe(e.write);
      expect(links.includes(`/cis/subcontractors/${sub.id}/invite`), `${role} row invite`).toBe(e.invite);
      // The toolbar's create-and-invite creates a subcontractor first: it needs write as well.
      expect(links.includes("/cis/subcontractors/invite"), `${role} toolbar invite`).toBe(e.invite && e.write);
      expect(listDoc.querySelector('form[action="/cis/subcontractors/export"][method="post"]') !== null, `${role} export`).toBe(e.export);
      expect(links.includes("/cis/subcontractors/import"), `${role} import`).toBe(e.import);

      const detail = await b.get(`${base}/${sub.id}`);
      expect(detail.status).toBe(200);
      const detailHtml = await markup(detail);
      const detailDoc = parseHtml(detailHtml);
      expect(pageText(detailDoc)).toContain(sub.utr.replace(/^\d{6}/, "******"));
      expect(detailHtml).not.toContain(sub.utr);
      expect(detailDoc.querySelector('form input[name="intent"][value="reveal"]') !== null, `${role} Reveal`).toBe(e.unmask);
      expect(hrefs(detailDoc).includes(`/cis/subcontractors/${sub.id}/edit`)).toBe(e.write);

      expect((await b.get(`${base}/new`)).status, `${role} new`).toBe(e.write ? 200 : 403);
      expect((await b.get(`${base}/${sub.id}/edit`)).status, `${role} edit`).toBe(e.write ? 200 : 403);

      // Posts: refused on the server whatever the page shows.
      const reveal = await b.post(`${base}/${sub.id}`, { intent: "reveal", field: "utr" });
      expect(reveal.status, `${role} reveal`).toBe(e.unmask ? 200 : 403);
      if (e.unmask) expect(textOf(await page(reveal), '[data-revealed="utr"]')).toBe(sub.utr);
      else expect(await markup(reveal)).not.toContain(sub.utr);

      const edit = await b.post(`${base}/${sub.id}/edit`, validForm({ name: "Renamed By Post", utr: "" }));
      expect(edit.status, `${role} edit post`).toBe(e.write ? 302 : 403);
      const created = await b.post(`${base}/new`, validForm({ name: "Created By Post" }));
      expect(created.status, `${role} create post`).toBe(e.write ? 302 : 403);
      expect(await count("cis_subcontractors", "tenant_id = ? AND name = 'Created By Post'", t.id)).toBe(e.write ? 1 : 0);

      const bulk = await b.post(base, {
        intent: "bulk-archive",
        ids: [sub.id],
        confirmed: "yes",
        [SUBMISSION_KEY_FIELD]: await mintKey(t, u, "cis.subcontractors.bulk"),
      });
      expect(bulk.status, `${role} bulk`).toBe(e.write ? 200 : 403);
      const archive = await b.post(`${base}/${sub.id}`, { intent: "archive", confirmed: "yes" });
      // Already archived by the bulk post when allowed: the detail page reports it.
      expect(archive.status, `${role} archive`).toBe(e.write ? 409 : 403);
      expect((await row(sub.id))?.active).toBe(e.write ? 0 : 1);
      if (!e.write) expect(await count("audit_events", "tenant_id = ? AND action = 'cis.permission.denied'", t.id)).toBeGreaterThanOrEqual(4);
    });
  }
});

describe("tenant isolation", () => {
  it("answers another tenant's subcontractor with 404 everywhere and never lists it", async () => {
    const a = await createTenant({ modules: ["cis"] });
    const foreign = await seedSub(a, { name: "Foreign Roofing" });
    const { t, b } = await setup("admin");
    const base = `${t.origin}/cis/subcontractors`;
    await seedSub(t, { name: "Home Plastering" });

    expect((await b.get(`${base}/${foreign.id}`)).status).toBe(404);
    expect((await b.get(`${base}/${foreign.id}/edit`)).status).toBe(404);
    expect((await b.post(`${base}/${foreign.id}/edit`, validForm({ name: "Hijacked", utr: "" }))).status).toBe(404);
    expect((await b.post(`${base}/${foreign.id}`, { intent: "archive", confirmed: "yes" })).status).toBe(404);
    const reveal = await b.post(`${base}/${foreign.id}`, { intent: "reveal", field: "utr" });
    expect(reveal.status).toBe(404);
    expect(await markup(reveal)).not.toContain(foreign.utr);

    const list = await shownText(await b.get(base));
    expect(list).toContain("Home Plastering");
    expect(list).not.toContain("Foreign Roofing");
    // Not even by its exact UTR.
    expect(await shownText(await b.get(`${base}?q=${foreign.utr}`))).not.toContain("Foreign Roofing");

    const r = await row(foreign.id);
    expect(r?.name).toBe("Foreign Roofing");
    expect(r?.active).toBe(1);
    expect(await count("audit_events", "tenant_id = ? AND target_id = ?", t.id, foreign.id)).toBe(0);
  });

  it("treats a soft-deleted subcontractor as gone", async () => {
    const { t, b } = await setup("lead");
    const sub = await seedSub(t, { name: "Deleted Scaffolding" });
    await env.DB.prepare("UPDATE cis_subcontractors SET deleted_at = ? WHERE id = ?").bind(Date.now(), sub.id).run();
    expect((await b.get(`${t.origin}/cis/subcontractors/${sub.id}`)).status).toBe(404);
    expect((await b.get(`${t.origin}/cis/subcontractors/${sub.id}/edit`)).status).toBe(404);
    expect(await shownText(await b.get(`${t.origin}/cis/subcontractors`))).not.toContain("Deleted Scaffolding");
  });
});

describe("the subcontractor form", () => {
  it("creates a subcontractor, lands on its page with a toast, and stores identifiers encrypted only", async () => {
    const { t, b } = await setup("lead");
    const utr = newUtr();
    const nino = "AB481937C";
    const res = await b.post(`${t.origin}/cis/subcontractors/new`, {
      type: "individual",
      name: "Alice Brick",
      utr: `${utr.slice(0, 5)} ${utr.slice(5)}`,
      nino: "ab 48 19 37 c",
      email: "alice@example.test",
      phone: "07700 900456",
      vatNumber: "GB123456789",
      verificationStatus: "gross",
      verificationRate: "30", // ignored: the status decides
      verificationMethod: "online",
      verificationReference: "V1234567890",
      verifiedDate: "2026-01-05",
      active: "on",
    });
    expect(res.status, await res.clone().text()).toBe(302);
    const r = await env.DB.prepare("SELECT * FROM cis_subcontractors WHERE tenant_id = ?").bind(t.id).first<Record<string, unknown>>();
    expect(r).toBeTruthy();
    // It lands on the new subcontractor's own page, with the toast.
    expect(location(res)).toBe(`/cis/subcontractors/${r?.id}`);
    const landed = await b.follow(res, `${t.origin}/cis/subcontractors/new`);
    expect(landed.status).toBe(200);
    const shown = await shownText(landed);
    expect(shown).toContain("Subcontractor created");
    expect(shown).toContain("Alice Brick has been created.");

    expect(r?.verification_status).toBe("gross");
    expect(r?.verification_rate).toBe(0);
    expect(r?.active).toBe(1);
    expect(r?.utr_masked).toBe(`******${utr.slice(-4)}`);
    expect(r?.nino_masked).toBe("AB****37C");
    expect(await decrypt(r, "utr")).toBe(utr);
    expect(await decrypt(r, "nino")).toBe(nino);

    const audit = await env.DB.prepare("SELECT action FROM audit_events WHERE tenant_id = ? AND target_id = ? ORDER BY action")
      .bind(t.id, r?.id)
      .all<{ action: string }>();
    expect(audit.results.map((a) => a.action)).toEqual(["cis.subcontractor.created", "cis.subcontractor.verified"]);
    expect(await count("activity_log", "tenant_id = ? AND entity_id = ? AND action = 'subcontractor.created'", t.id, r?.id)).toBe(1);

    // Now edit it with a new NINO and the UTR left blank, then scan everything stored.
    const edit = await b.post(`${t.origin}/cis/subcontractors/${r?.id}/edit`, {
      type: "individual",
      name: "Alice Brick Ltd",
      utr: "",
      nino: "CE192837D",
      verificationStatus: "higher",
      active: "on",
    });
    expect(edit.status, await edit.clone().text()).toBe(302);
    const after = await row(String(r?.id));
    expect(after?.verification_rate).toBe(30);
    expect(await decrypt(after, "utr")).toBe(utr);
    expect(await decrypt(after, "nino")).toBe("CE192837D");

    const dump = JSON.stringify([
      (await env.DB.prepare("SELECT * FROM cis_subcontractors WHERE tenant_id = ?").bind(t.id).all()).results,
      (await env.DB.prepare("SELECT * FROM audit_events WHERE tenant_id = ?").bind(t.id).all()).results,
      (await env.DB.prepare("SELECT * FROM activity_log WHERE tenant_id = ?").bind(t.id).all()).results,
    ]);
    for (const secret of [utr, utr.slice(0, 5), "481937", "AB481937C", "192837", "CE192837D"]) expect(dump, secret).not.toContain(secret);

    // Nor do the pages carry them.
    for (const path of ["", `/${r?.id}`, `/${r?.id}/edit`]) {
      const body = await markup(await b.get(`${t.origin}/cis/subcontractors${path}`));
      expect(body).not.toContain(utr);
      expect(body).not.toContain("CE192837D");
    }
  });

  // The hints the create form shows under these fields.
  const HINTS: Record<string, string> = {
    utr: "10 digits",
    nino: "Individuals only.",
    companyNumber: "Companies and partnerships only: 8 letters or digits.",
  };

  it("shows each validation message next to its field and keeps the input", async () => {
    const { t, b } = await setup("lead");
    const url = `${t.origin}/cis/subcontractors/new`;
    const cases: [Record<string, string>, string][] = [
      [{ name: "" }, "Enter the subcontractor's name, at least 2 characters"],
      [{ name: "A" }, "Enter the subcontractor's name, at least 2 characters"],
      [{ utr: "" }, "Enter the subcontractor's UTR: 10 digits, like 2234567890"],
      [{ utr: "12345" }, "Enter a UTR in the correct format: 10 digits, like 2234567890"],
      [{ nino: "QQ123456Z" }, "Enter a National Insurance number in the correct format, like QQ 12 34 56 C"],
      [{ type: "company", companyNumber: "12AB" }, "Enter a company number in the correct format: 8 characters, like 01234567 or SC123456"],
      [{ email: "not-an-email" }, "Enter an email address in the correct format, like name@example.com"],
      [{ phone: "12345" }, "Enter a UK phone number, like 01632 960 001, 07700 900 982 or +44 7700 900 982"],
      [{ vatNumber: "GB12" }, "Enter a VAT registration number in the correct format: 9 or 12 digits, like GB123456789"],
    ];
    for (const [fields, message] of cases) {
      const form = validForm({ name: "Kept Name Here", ...fields });
      const res = await b.post(url, form);
      expect(res.status, message).toBe(400);
      const doc = await page(res);
      // The message is the first thing the failing field points at (then its hint, if any), announced as an alert,
      // and the user's input comes back.
      const failed = Object.keys(fields).find((k) => k !== "type") ?? "name";
      expect(describedBy(doc, failed), message).toBe([message, HINTS[failed]].filter(Boolean).join(" "));
      expect(alerts(doc), message).toContain(message);
      for (const [k, v] of Object.entries(fields)) if (v && k !== "type") expect(valueOf(doc, k), `${k} kept`).toBe(v);
    }
    // A NINO for a company is ignored rather than refused.
    const ok = await b.post(url, validForm({ type: "company", nino: "QQ123456Z", companyNumber: "sc123456" }));
    expect(ok.status).toBe(302);
    const r = await env.DB.prepare("SELECT nino_enc, company_number FROM cis_subcontractors WHERE tenant_id = ?")
      .bind(t.id)
      .first<{ nino_enc: string | null; company_number: string }>();
    expect(r?.nino_enc).toBeNull();
    expect(r?.company_number).toBe("SC123456");
    expect(await count("cis_subcontractors", "tenant_id = ?", t.id)).toBe(1);
  });

  it("requires the UTR on create but keeps the stored one when left blank on edit", async () => {
    const { t, b } = await setup("lead");
    const sub = await seedSub(t, { name: "Keep My UTR" });
    const before = await row(sub.id);
    const editHtml = await markup(await b.get(`${t.origin}/cis/subcontractors/${sub.id}/edit`));
    const editDoc = parseHtml(editHtml);
    expect(pageText(editDoc)).toContain("Leave blank to keep the current UTR");
    expect(textsOf(editDoc, 'button[type="submit"]')).toContain("Update Subcontractor");
    expect(valueOf(editDoc, "utr") ?? "").toBe("");
    expect(editHtml).not.toContain(sub.utr);

    const res = await b.post(`${t.origin}/cis/subcontractors/${sub.id}/edit`, validForm({ name: "Keep My UTR", utr: "" }));
    expect(res.status).toBe(302);
    const after = await row(sub.id);
    expect(after?.utr_enc).toBe(before?.utr_enc);
    expect(await decrypt(after, "utr")).toBe(sub.utr);

    // A new UTR replaces it, and search by UTR follows.
    const next = newUtr();
    expect((await b.post(`${t.origin}/cis/subcontractors/${sub.id}/edit`, validForm({ name: "Keep My UTR", utr: next }))).status).toBe(302);
    expect(await decrypt(await row(sub.id), "utr")).toBe(next);
    expect(await shownText(await b.get(`${t.origin}/cis/subcontractors?q=${next}`))).toContain("Keep My UTR");
    expect(await shownText(await b.get(`${t.origin}/cis/subcontractors?q=${sub.utr}`))).not.toContain("Keep My UTR");

    // On create a blank UTR is refused.
    const create = await b.post(`${t.origin}/cis/subcontractors/new`, validForm({ utr: "" }));
    expect(create.status).toBe(400);
    expect(describedBy(await page(create), "utr")).toBe("Enter the subcontractor's UTR: 10 digits, like 2234567890 10 digits");
  });

  it("ties each field's hint to its input, so a screen reader hears it", async () => {
    const { t, b } = await setup("lead");
    const doc = await page(await b.get(`${t.origin}/cis/subcontractors/new`));
    for (const [name, hint] of Object.entries(HINTS)) expect(describedBy(doc, name), name).toBe(hint);
    expect(describedBy(doc, "name")).toBe("");
  });

  it("keeps the NINO when left blank on edit and clears it only when Remove is ticked", async () => {
    const { t, b } = await setup("lead");
    const sub = await seedSub(t, { name: "Nino Holder", nino: "AB123456C" });
    const edit = `${t.origin}/cis/subcontractors/${sub.id}/edit`;
    const editDoc = await page(await b.get(edit));
    const remove = field(editDoc, "removeNino");
    expect(remove.getAttribute("type")).toBe("checkbox");
    expect(textOf(editDoc, `label[for="${remove.getAttribute("id")}"]`)).toBe(`Remove the current NINO (${String((await row(sub.id))?.nino_masked)})`);

    // Blank keeps it.
    expect((await b.post(edit, validForm({ name: "Nino Holder", utr: "" }))).status).toBe(302);
    expect(await decrypt(await row(sub.id), "nino")).toBe("AB123456C");

    // A new NINO and Remove together are refused next to the checkbox, nothing written.
    const both = await b.post(edit, validForm({ name: "Nino Holder", utr: "", nino: "CE123456D", removeNino: "on" }));
    expect(both.status).toBe(400);
    expect(describedBy(await page(both), "removeNino")).toBe("Enter a new National Insurance number or remove the current one, not both");
    expect(await decrypt(await row(sub.id), "nino")).toBe("AB123456C");

    // Remove clears the ciphertext and the mask, and the audit names the field only.
    expect((await b.post(edit, validForm({ name: "Nino Holder", utr: "", removeNino: "on" }))).status).toBe(302);
    const after = await row(sub.id);
    expect(after?.nino_enc).toBeNull();
    expect(after?.nino_masked).toBeNull();
    const audit = await env.DB.prepare(
      "SELECT payload FROM audit_events WHERE target_id = ? AND action = 'cis.subcontractor.updated' ORDER BY created_at DESC LIMIT 1",
    )
      .bind(sub.id)
      .first<{ payload: string }>();
    expect(JSON.parse(audit?.payload ?? "{}").fields).toContain("nino");
    expect(audit?.payload).not.toContain("AB123456C");
    // With no NINO on file the checkbox is not offered.
    expect(hasField(await page(await b.get(edit)), "removeNino")).toBe(false);
  });

  it("lets the verification status set the rate and audits the change", async () => {
    const { t, b } = await setup("lead");
    const sub = await seedSub(t, { name: "Rate Follows" });
    expect((await row(sub.id))?.verification_rate).toBe(20);
    for (const [status, rate] of [
      ["gross", 0],
      ["higher", 30],
      ["standard", 20],
    ] as const) {
      const res = await b.post(
        `${t.origin}/cis/subcontractors/${sub.id}/edit`,
        validForm({ name: "Rate Follows", utr: "", verificationStatus: status, verificationRate: "99" }),
      );
      expect(res.status).toBe(302);
      const r = await row(sub.id);
      expect(r?.verification_status).toBe(status);
      expect(r?.verification_rate).toBe(rate);
    }
    expect(await count("audit_events", "tenant_id = ? AND target_id = ? AND action = 'cis.subcontractor.verified'", t.id, sub.id)).toBe(3);
    expect(textOf(await page(await b.get(`${t.origin}/cis/subcontractors/${sub.id}/edit`)), 'output[data-rate="true"]')).toBe("20%");
  });

  it("shows a duplicate UTR and a failed save in a red banner, with nothing written", async () => {
    const { t, b } = await setup("lead");
    const first = await seedSub(t, { name: "First Holder" });
    const dup = await b.post(`${t.origin}/cis/subcontractors/new`, validForm({ name: "Second Holder", utr: first.utr }));
    expect(dup.status).toBe(409);
    const doc = await page(dup);
    expect(textOf(doc, '[role="alert"][data-form-error]')).toContain("A subcontractor with this UTR already exists");
    expect(valueOf(doc, "name")).toBe("Second Holder");
    expect(await count("cis_subcontractors", "tenant_id = ?", t.id)).toBe(1);

    // A failure inside the batch (forced by a trigger for this tenant only) leaves nothing half-written.
    const trigger = `fail_${t.slug}`;
    await env.DB.prepare(
      `CREATE TRIGGER ${trigger} BEFORE INSERT ON cis_subcontractors WHEN NEW.tenant_id = '${t.id}' BEGIN SELECT RAISE(ABORT, 'forced failure'); END`,
    ).run();
    try {
      const res = await b.post(`${t.origin}/cis/subcontractors/new`, validForm({ name: "Never Saved" }));
      expect(res.status).toBe(500);
      expect(textOf(await page(res), '[role="alert"][data-form-error]')).toContain("Failed to save subcontractor");
    } finally {
      await env.DB.prepare(`DROP TRIGGER ${trigger}`).run();
    }
    expect(await count("cis_subcontractors", "tenant_id = ?", t.id)).toBe(1);
    expect(await count("audit_events", "tenant_id = ? AND action = 'cis.subcontractor.created'", t.id)).toBe(1);
  });

  it("reactivates an archived subcontractor from its form, and can archive from it", async () => {
    const { t, b } = await setup("lead");
    const sub = await seedSub(t, { name: "Back Again" }, { active: false });
    const editDoc = await page(await b.get(`${t.origin}/cis/subcontractors/${sub.id}/edit`));
    expect(field(editDoc, "active").getAttribute("role")).toBe("switch");
    expect(isChecked(editDoc, "active")).toBe(false);
    expect((await b.post(`${t.origin}/cis/subcontractors/${sub.id}/edit`, validForm({ name: "Back Again", utr: "", active: "on" }))).status).toBe(302);
    expect((await row(sub.id))?.active).toBe(1);
    expect(await count("audit_events", "target_id = ? AND action = 'cis.subcontractor.reactivated'", sub.id)).toBe(1);
    // Unticked switch = archived.
    const off = validForm({ name: "Back Again", utr: "" }) as Record<string, string>;
    delete off.active;
    expect((await b.post(`${t.origin}/cis/subcontractors/${sub.id}/edit`, off)).status).toBe(302);
    expect((await row(sub.id))?.active).toBe(0);
    expect(await count("audit_events", "target_id = ? AND action = 'cis.subcontractor.archived'", sub.id)).toBe(1);
  });

  it("starts a new subcontractor active, standard and individual", async () => {
    const { t, b } = await setup("lead");
    const doc = await page(await b.get(`${t.origin}/cis/subcontractors/new`));
    expect(textsOf(doc, "h2, h3, legend")).toEqual(expect.arrayContaining(["Subcontractor Details", "Verification Details"]));
    expect(textsOf(doc, 'button[type="submit"]')).toContain("Create Subcontractor");
    expect(linksTo(doc, "Cancel")).toEqual(["/cis/subcontractors"]);
    expect(field(doc, "active").getAttribute("role")).toBe("switch");
    expect(isChecked(doc, "active")).toBe(true);
    expect(valueOf(doc, "verificationStatus")).toBe("standard");
    expect(valueOf(doc, "type")).toBe("individual");
    expect(attr(field(doc, "utr"), "maxLength")).toBe("10");
  });
});

describe("reveal", () => {
  it("returns the decrypted value to cis.pii.unmask only, audited, and fails closed on a copied ciphertext", async () => {
    const { t, b, u } = await setup("admin");
    const a = await seedSub(t, { name: "Reveal Alpha", nino: "AB481937C" });
    const z = await seedSub(t, { name: "Reveal Zulu" });

    const res = await b.post(`${t.origin}/cis/subcontractors/${a.id}`, { intent: "reveal", field: "utr" });
    expect(res.status).toBe(200);
    expect(res.headers.get("Cache-Control")).toContain("no-store");
    expect(textOf(await page(res), '[data-revealed="utr"]')).toBe(a.utr);
    const nino = await page(await b.post(`${t.origin}/cis/subcontractors/${a.id}`, { intent: "reveal", field: "nino" }));
    expect(textOf(nino, '[data-revealed="nino"]')).toBe("AB481937C");

    const audits = await env.DB.prepare("SELECT actor_id, payload FROM audit_events WHERE tenant_id = ? AND action = 'cis.pii.revealed' AND target_id = ?")
      .bind(t.id, a.id)
      .all<{ actor_id: string; payload: string }>();
    expect(audits.results).toHaveLength(2);
    expect(audits.results[0].actor_id).toBe(u.id);
    expect(audits.results.map((r) => JSON.parse(r.payload).field).sort()).toEqual(["nino", "utr"]);
    expect(JSON.stringify(audits.results)).not.toContain(a.utr);

    // Copy Alpha's ciphertext onto Zulu: it must not decrypt as Alpha's UTR.
    const alpha = await row(a.id);
    await env.DB.prepare("UPDATE cis_subcontractors SET utr_enc = ? WHERE id = ?").bind(alpha?.utr_enc, z.id).run();
    const copied = await b.post(`${t.origin}/cis/subcontractors/${z.id}`, { intent: "reveal", field: "utr" });
    expect(copied.status).toBe(500);
    const copiedBody = await markup(copied);
    expect(pageText(parseHtml(copiedBody))).toContain("Failed to decrypt sensitive data");
    expect(copiedBody).not.toContain(a.utr);
    expect(await count("audit_events", "tenant_id = ? AND action = 'cis.pii.revealed' AND target_id = ?", t.id, z.id)).toBe(0);
    expect(await count("audit_events", "tenant_id = ? AND action = 'cis.error' AND target_id = ?", t.id, z.id)).toBe(1);
  });

  it("refuses without cis.pii.unmask (403) and audits the denial", async () => {
    const { t, b, u } = await setup("lead");
    const a = await seedSub(t, { name: "No Reveal" });
    const res = await b.post(`${t.origin}/cis/subcontractors/${a.id}`, { intent: "reveal", field: "utr" });
    expect(res.status).toBe(403);
    expect(await markup(res)).not.toContain(a.utr);
    expect(await count("audit_events", "tenant_id = ? AND action = 'cis.permission.denied' AND actor_id = ?", t.id, u.id)).toBe(1);
    expect(await count("audit_events", "tenant_id = ? AND action = 'cis.pii.revealed'", t.id)).toBe(0);
    // The reveal travels in a POST only: a GET with the same fields reveals nothing.
    expect(await markup(await b.get(`${t.origin}/cis/subcontractors/${a.id}?intent=reveal&field=utr`))).not.toContain(a.utr);
  });
});

describe("the list", () => {
  it("shows the empty states with the spec's texts", async () => {
    const { t, b } = await setup("lead");
    const empty = await shownText(await b.get(`${t.origin}/cis/subcontractors`));
    expect(empty).toContain("No subcontractors found");
    expect(empty).toContain("Get started by adding a new subcontractor");
    const filtered = await shownText(await b.get(`${t.origin}/cis/subcontractors?q=nothing`));
    expect(filtered).toContain("No subcontractors found");
    expect(filtered).toContain("Try adjusting your filters");
  });

  it("searches by name and exact UTR, filters by status and type, and counts in the summary cards", async () => {
    const { t, b } = await setup("standard");
    const ann = await seedSub(t, { name: "Ann Carpentry", verificationStatus: "gross" });
    await seedSub(t, { name: "Bob Groundworks Ltd", type: "company", companyNumber: "12345678" });
    await seedSub(t, { name: "Cat Partners", type: "partnership", verificationStatus: "higher" });
    await seedSub(t, { name: "Dan Archived", verificationStatus: "gross" }, { active: false });
    const base = `${t.origin}/cis/subcontractors`;
    const names = (body: string) => ["Ann Carpentry", "Bob Groundworks Ltd", "Cat Partners", "Dan Archived"].filter((n) => body.includes(n));

    const all = await page(await b.get(base));
    expect(names(pageText(all))).toHaveLength(4);
    expect(pageText(all)).toContain("4 items");
    expect(textOf(all, '[data-card="Total"]')).toBe("4");
    expect(textOf(all, '[data-card="Active"]')).toBe("3");
    expect(textOf(all, '[data-card="Gross (0%)"]')).toBe("1");
    expect(textOf(all, '[data-card="Standard (20%)"]')).toBe("1");

    expect(names(await shownText(await b.get(`${base}?q=carp`)))).toEqual(["Ann Carpentry"]);
    expect(names(await shownText(await b.get(`${base}?q=${ann.utr}`)))).toEqual(["Ann Carpentry"]);
    // Part of a UTR does not match (only the exact keyed hash is searchable).
    expect(names(await shownText(await b.get(`${base}?q=${ann.utr.slice(0, 9)}`)))).toEqual([]);
    expect(names(await shownText(await b.get(`${base}?status=archived`)))).toEqual(["Dan Archived"]);
    expect(names(await shownText(await b.get(`${base}?status=active`)))).toEqual(["Ann Carpentry", "Bob Groundworks Ltd", "Cat Partners"]);
    expect(names(await shownText(await b.get(`${base}?type=company`)))).toEqual(["Bob Groundworks Ltd"]);
    expect(names(await shownText(await b.get(`${base}?type=individual&status=active`)))).toEqual(["Ann Carpentry"]);
    // The GET form keeps the filters in the URL.
    const filters = one(await page(await b.get(`${base}?q=carp&status=active&type=individual`)), 'form[role="search"]');
    expect(filters.getAttribute("method")).toBe("get");
    expect(valueOf(filters, "q")).toBe("carp");
    expect(valueOf(filters, "status")).toBe("active");
    expect(valueOf(filters, "type")).toBe("individual");
  });

  it("paginates on the server and keeps the filters in the pager", async () => {
    const { t, b } = await setup("lead");
    for (let i = 0; i < 30; i++) await seedSub(t, { name: `Paged ${String(i).padStart(2, "0")}` });
    await seedSub(t, { name: "Other Company Ltd", type: "company" });
    const base = `${t.origin}/cis/subcontractors`;
    const rowsOn = (doc: Document) => doc.querySelectorAll("[data-row]").length;

    const p1 = await page(await b.get(`${base}?type=individual`));
    expect(rowsOn(p1)).toBe(PAGE_SIZE);
    expect(pageText(p1)).toContain("30 items");
    expect(pageText(p1)).toContain("Page 1 of 2");
    expect(hrefs(p1)).toContain("/cis/subcontractors?type=individual&page=2");
    expect(pageText(p1)).toContain("Paged 00");
    expect(pageText(p1)).not.toContain("Paged 29");

    const p2 = await page(await b.get(`${base}?type=individual&page=2`));
    expect(rowsOn(p2)).toBe(5);
    expect(pageText(p2)).toContain("Page 2 of 2");
    expect(pageText(p2)).toContain("Paged 29");
    expect(pageText(p2)).not.toContain("Other Company Ltd");
    expect(hrefs(p2)).toContain("/cis/subcontractors?type=individual");
  });

  it("counts a search's matches only as far as the pager reaches: 'More than 100 items', exact once the end is in reach", async () => {
    const { t, b } = await setup("lead");
    const now = Date.now();
    await env.DB.prepare(
      `WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 110)
       INSERT INTO cis_subcontractors (id, tenant_id, type, name, name_lower, active, verification_status, verification_rate, created_at, updated_at)
       SELECT 'sub_cap_' || i, ?1, 'individual', 'Capped ' || printf('%03d', i), 'capped ' || printf('%03d', i), 1, 'standard', 20, ?2, ?2 FROM s`,
    )
      .bind(t.id, now)
      .run();
    const base = `${t.origin}/cis/subcontractors`;
    const p1 = await page(await b.get(`${base}?q=capped`));
    expect(textOf(p1, "[data-item-count]")).toBe("More than 100 items");
    expect(pageText(p1)).toContain("Page 1 of at least 5");
    expect(hrefs(p1)).toContain("/cis/subcontractors?q=capped&page=2");
    // Page 2 counts up to 125: all 110 are counted.
    const p2 = await page(await b.get(`${base}?q=capped&page=2`));
    expect(textOf(p2, "[data-item-count]")).toBe("110 items");
    expect(pageText(p2)).toContain("Page 2 of 5");
  });

  it("renders 'Error loading subcontractors' when the data layer fails", async () => {
    const { t, b } = await setup("lead");
    const saved = env.PII_HMAC_KEY;
    // A 10-digit search needs the keyed hash; without its key the data layer throws.
    (env as { PII_HMAC_KEY: string }).PII_HMAC_KEY = "";
    let body: string;
    try {
      body = await markup(await b.get(`${t.origin}/cis/subcontractors?q=5334567890`));
    } finally {
      (env as { PII_HMAC_KEY: string }).PII_HMAC_KEY = saved;
    }
    // The cause is logged under the reference; the page never shows an error's own text.
    expect(pageText(parseHtml(body))).toMatch(/Error loading subcontractors: Something went wrong\. Reference: [A-Z0-9]{6,}/);
    expect(body).not.toContain("PII_HMAC_KEY");
  });
});

describe("bulk archive and bulk delete", () => {
  it("asks for confirmation on the server, then reports each item; another tenant's id fails as not found", async () => {
    const other = await createTenant({ modules: ["cis"] });
    const foreign = await seedSub(other, { name: "Foreign Tiling" });
    const { t, b } = await setup("lead");
    const s1 = await seedSub(t, { name: "Bulk One" });
    const s2 = await seedSub(t, { name: "Bulk Two" });
    const s3 = await seedSub(t, { name: "Bulk Three" });
    const base = `${t.origin}/cis/subcontractors`;

    // Step 1: no JavaScript, no confirmation yet: the server lists what would change.
    const ask = await b.post(base, { intent: "bulk-archive", ids: [s1.id, s2.id, foreign.id] });
    expect(ask.status).toBe(200);
    const askBody = await shownText(ask.clone());
    expect(askBody).toContain("Are you sure you want to archive 3 selected items?");
    expect(askBody).toContain("Bulk One");
    expect(askBody).toContain("Bulk Two");
    expect(askBody).not.toContain("Foreign Tiling");
    expect(askBody).toContain("Confirm");
    expect(askBody).toContain("Cancel");
    expect((await row(s1.id))?.active).toBe(1);

    // Step 2: confirmed.
    const done = await b.post(base, {
      intent: "bulk-archive",
      ids: [s1.id, s2.id, foreign.id],
      confirmed: "yes",
      [SUBMISSION_KEY_FIELD]: await confirmKey(ask),
    });
    expect(done.status).toBe(200);
    const doneDoc = await page(done);
    expect(pageText(doneDoc)).toContain("Archived 2 of 3 selected items.");
    expect(textsOf(doneDoc, "[data-failed-id]")).toEqual([`${foreign.id}: Subcontractor not found`]);
    expect(one(doneDoc, "[data-failed-id]").getAttribute("data-failed-id")).toBe(foreign.id);
    expect((await row(s1.id))?.active).toBe(0);
    expect((await row(s2.id))?.active).toBe(0);
    expect((await row(s3.id))?.active).toBe(1);
    const f = await row(foreign.id);
    expect(f?.active).toBe(1);
    expect(f?.deleted_at).toBeNull();
    expect(await count("audit_events", "tenant_id = ? AND action = 'cis.subcontractor.archived'", t.id)).toBe(2);
    expect(await count("audit_events", "target_id = ?", foreign.id)).toBe(1); // only its own creation

    // Archiving again reports 'Already archived' per item.
    const again = await shownText(await b.post(base, await withPageKey(b, base, { intent: "bulk-archive", ids: [s1.id], confirmed: "yes" })));
    expect(again).toContain("Archived 0 of 1 selected items.");
    expect(again).toContain("Already archived");

    // Bulk delete through 'select all' on the page (no JavaScript: the page's ids travel along).
    const askDeleteRes = await b.post(base, { intent: "bulk-delete", selectAll: "page", pageIds: [s1.id, s2.id, s3.id, foreign.id] });
    const deleteKey = await confirmKey(askDeleteRes.clone());
    const askDelete = await shownText(askDeleteRes);
    expect(askDelete).toContain("Are you sure you want to delete 4 selected items?");
    const deleted = await shownText(
      await b.post(base, { intent: "bulk-delete", ids: [s1.id, s2.id, s3.id, foreign.id], confirmed: "yes", [SUBMISSION_KEY_FIELD]: deleteKey }),
    );
    expect(deleted).toContain("Deleted 3 of 4 selected items.");
    expect(deleted).toContain("Subcontractor not found");
    for (const s of [s1, s2, s3]) {
      const r = await row(s.id);
      expect(r?.deleted_at).toBeGreaterThan(0); // soft: the row is still there
    }
    expect((await row(foreign.id))?.deleted_at).toBeNull();
    expect(await count("audit_events", "tenant_id = ? AND action = 'cis.subcontractor.deleted'", t.id)).toBe(3);
    const list = await shownText(await b.get(base));
    expect(list).toContain("No subcontractors found");
  });

  it("a repeated bulk archive or delete (the same submission key: a double click, a refreshed result) answers with the first result and does nothing again", async () => {
    const { t, b } = await setup("lead");
    const s1 = await seedSub(t, { name: "Repeat One" });
    const s2 = await seedSub(t, { name: "Repeat Two" });
    const base = `${t.origin}/cis/subcontractors`;

    // Without JavaScript: the confirmation step carries the key.
    const archive = { intent: "bulk-archive", ids: [s1.id, s2.id], confirmed: "yes" };
    const key = await confirmKey(await b.post(base, { intent: "bulk-archive", ids: [s1.id, s2.id] }));
    expect(await shownText(await b.post(base, { ...archive, [SUBMISSION_KEY_FIELD]: key }))).toContain("Archived 2 of 2 selected items.");
    // Someone makes one active again; the repeated post must not archive it a second time.
    await env.DB.prepare("UPDATE cis_subcontractors SET active = 1 WHERE id = ?").bind(s1.id).run();
    const repeat = await b.post(base, { ...archive, [SUBMISSION_KEY_FIELD]: key });
    expect(repeat.status).toBe(200);
    const repeated = await shownText(repeat);
    expect(repeated).toContain("Archived 2 of 2 selected items.");
    expect(repeated).not.toContain("Already archived");
    expect((await row(s1.id))?.active).toBe(1);
    expect(await count("audit_events", "tenant_id = ? AND action = 'cis.subcontractor.archived'", t.id)).toBe(2);

    // With JavaScript the toolbar's own key goes with the confirmed post.
    const del = await withPageKey(b, base, { intent: "bulk-delete", ids: [s1.id, s2.id], confirmed: "yes" }, "#subcontractor-bulk");
    const [first, second] = await Promise.all([b.post(base, del), b.post(base, del)]);
    expect([first.status, second.status]).toEqual([200, 200]);
    for (const res of [first, second]) expect(await shownText(res)).toContain("Deleted 2 of 2 selected items.");
    expect(await count("audit_events", "tenant_id = ? AND action = 'cis.subcontractor.deleted'", t.id)).toBe(2);
    expect(await shownText(await b.post(base, del))).toContain("Deleted 2 of 2 selected items.");
  });

  it("a confirmed bulk archive without its submission key is refused and changes nothing", async () => {
    const { t, b } = await setup("lead");
    const s = await seedSub(t, { name: "Keyless" });
    const res = await b.post(`${t.origin}/cis/subcontractors`, { intent: "bulk-archive", ids: [s.id], confirmed: "yes" });
    expect(res.status).toBe(409);
    expect(alerts(await page(res)).join(" ")).toContain(SUBMISSION_KEY_MESSAGES.missing);
    expect((await row(s.id))?.active).toBe(1);
    expect(await count("audit_events", "tenant_id = ? AND action = 'cis.subcontractor.archived'", t.id)).toBe(0);
  });

  it("archives one row after its own confirmation and shows a toast", async () => {
    const { t, b } = await setup("lead");
    const s = await seedSub(t, { name: "Single Archive" });
    const ask = await shownText(await b.post(`${t.origin}/cis/subcontractors?status=active`, { intent: "archive", ids: s.id }));
    expect(ask).toContain("Archive Single Archive?");
    expect((await row(s.id))?.active).toBe(1);
    const done = await b.post(`${t.origin}/cis/subcontractors?status=active`, { intent: "archive", ids: s.id, confirmed: "yes" });
    expect(done.status).toBe(302);
    expect(location(done)).toBe("/cis/subcontractors?status=active");
    expect(await shownText(await b.follow(done, `${t.origin}/cis/subcontractors`))).toContain("Subcontractor archived");
    expect((await row(s.id))?.active).toBe(0);

    // From the detail page too, with the same server-side confirmation step.
    const s2 = await seedSub(t, { name: "Detail Archive" });
    expect(await shownText(await b.post(`${t.origin}/cis/subcontractors/${s2.id}`, { intent: "archive" }))).toContain("Archive Detail Archive?");
    expect((await row(s2.id))?.active).toBe(1);
    expect((await b.post(`${t.origin}/cis/subcontractors/${s2.id}`, { intent: "archive", confirmed: "yes" })).status).toBe(302);
    expect((await row(s2.id))?.active).toBe(0);

    // With JavaScript the form posts to React Router's data URL; the redirect must still name the page.
    const s3 = await seedSub(t, { name: "Script Archive" });
    const viaJs = await b.post(`${t.origin}/cis/subcontractors.data?status=active`, { intent: "archive", ids: s3.id, confirmed: "yes" });
    const body = await viaJs.text();
    expect(body).toContain("/cis/subcontractors?status=active");
    expect(body).not.toContain(".data");
    expect((await row(s3.id))?.active).toBe(0);
  });

  it("refuses an empty selection", async () => {
    const { t, b } = await setup("lead");
    const res = await b.post(`${t.origin}/cis/subcontractors`, { intent: "bulk-delete", confirmed: "yes" });
    expect(res.status).toBe(400);
    expect(alerts(await page(res)).join(" ")).toContain("Select at least one subcontractor");
  });
});

describe("the detail page", () => {
  it("shows every field with masked identifiers and en-GB dates", async () => {
    const { t, b } = await setup("lead");
    const s = await seedSub(t, {
      name: "Detail Fields Ltd",
      type: "company",
      companyNumber: "AB123456",
      vatNumber: "123456789",
      email: "office@detail.test",
      phone: "02079460000",
      verificationStatus: "higher",
      verificationMethod: "letter",
      verificationReference: "V0000000001",
      verifiedDate: "2026-03-04",
    });
    const detailHtml = await markup(await b.get(`${t.origin}/cis/subcontractors/${s.id}`));
    const body = pageText(parseHtml(detailHtml));
    for (const text of [
      "Detail Fields Ltd",
      "Company",
      "AB123456",
      "123456789",
      "office@detail.test",
      "02079460000",
      "Higher",
      "30%",
      "Letter",
      "V0000000001",
      "04/03/2026",
      "Active",
      `******${s.utr.slice(-4)}`,
    ]) {
      expect(body, text).toContain(text);
    }
    expect(detailHtml).not.toContain(s.utr);
    expect(body).toMatch(/Created[\s\S]*\d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}/);
  });
});

describe("verification needs cis.sub.verify", () => {
  // cis.sub.write without cis.sub.verify (nor the coarse scopes that imply it).
  const WRITER_ONLY = { lead: ["cis.read", "cis.sub.write"] };
  const REFUSED = "You don't have permission to change verification details (cis.sub.verify)";

  it("edit: other fields save; verification fields are shown read-only and a changed value is refused next to its field", async () => {
    const t = await createTenant({ modules: ["cis"], bundles: WRITER_ONLY });
    const { b } = await setup("lead", { tenant: t });
    const sub = await seedSub(t, {
      name: "Verified Roofing",
      verificationStatus: "gross",
      verificationMethod: "online",
      verificationReference: "V1234567890",
      verifiedDate: "2026-01-05",
    });
    const edit = `${t.origin}/cis/subcontractors/${sub.id}/edit`;
    const before = await row(sub.id);

    const editDoc = await page(await b.get(edit));
    expect(pageText(editDoc)).toContain("Changing verification details needs the cis.sub.verify permission");
    expect(hasField(editDoc, "verificationStatus")).toBe(false);
    expect(hasField(editDoc, "verificationReference")).toBe(false);
    expect(pageText(editDoc)).toContain("V1234567890");

    // The read-only form posts no verification fields: the stored ones stay.
    const ok = await b.post(edit, { type: "individual", name: "Verified Roofing Ltd", utr: "", email: "new@example.test", active: "on" });
    expect(ok.status, await ok.clone().text()).toBe(302);
    const saved = await row(sub.id);
    expect(saved?.name).toBe("Verified Roofing Ltd");
    expect(saved?.email).toBe("new@example.test");
    for (const k of ["verification_status", "verification_rate", "verification_method", "verification_reference", "verified_date", "verified_by"])
      expect(saved?.[k], k).toBe(before?.[k]);

    // Posting the stored values unchanged is fine too.
    const same = await b.post(edit, {
      type: "individual",
      name: "Verified Roofing Ltd",
      utr: "",
      verificationStatus: "gross",
      verificationMethod: "online",
      verificationReference: "V1234567890",
      verifiedDate: "2026-01-05",
      active: "on",
    });
    expect(same.status).toBe(302);

    // A crafted post that changes any of them is refused, field by field, and nothing is written.
    for (const [field, value] of [
      ["verificationStatus", "higher"],
      ["verificationMethod", "letter"],
      ["verificationReference", "V9999999999"],
      ["verifiedDate", "2026-02-01"],
    ] as const) {
      const res = await b.post(edit, {
        type: "individual",
        name: "Should Not Save",
        utr: "",
        verificationStatus: "gross",
        verificationMethod: "online",
        verificationReference: "V1234567890",
        verifiedDate: "2026-01-05",
        active: "on",
        [field]: value,
      });
      expect(res.status, field).toBe(400);
      expect(textOf(await page(res), `[id$="-${field}-error"]`), field).toBe(REFUSED);
    }
    const after = await row(sub.id);
    expect(after?.name).toBe("Verified Roofing Ltd");
    expect(after?.verification_status).toBe("gross");
    expect(after?.verification_rate).toBe(0);
    expect(await count("audit_events", "tenant_id = ? AND target_id = ? AND action = 'cis.subcontractor.verified' AND actor_id != 'seed'", t.id, sub.id)).toBe(
      0,
    );
  });

  it("create: a new subcontractor starts unverified (standard, 20%); verification values are refused", async () => {
    const t = await createTenant({ modules: ["cis"], bundles: WRITER_ONLY });
    const { b } = await setup("lead", { tenant: t });
    const url = `${t.origin}/cis/subcontractors/new`;
    const newDoc = await page(await b.get(url));
    expect(pageText(newDoc)).toContain("Changing verification details needs the cis.sub.verify permission");
    expect(hasField(newDoc, "verificationStatus")).toBe(false);

    const refused = await b.post(url, validForm({ name: "Gross Claimer", verificationStatus: "gross", verificationReference: "V1111111111" }));
    expect(refused.status).toBe(400);
    const doc = await page(refused);
    expect(textOf(doc, '[id$="-verificationStatus-error"]')).toBe(REFUSED);
    expect(textOf(doc, '[id$="-verificationReference-error"]')).toBe(REFUSED);
    expect(valueOf(doc, "name")).toBe("Gross Claimer");
    expect(await count("cis_subcontractors", "tenant_id = ?", t.id)).toBe(0);

    const ok = await b.post(url, { type: "individual", name: "Plain Builder", utr: newUtr(), active: "on" });
    expect(ok.status).toBe(302);
    const r = await env.DB.prepare("SELECT * FROM cis_subcontractors WHERE tenant_id = ?").bind(t.id).first<Record<string, unknown>>();
    expect(r).toMatchObject({
      name: "Plain Builder",
      verification_status: "standard",
      verification_rate: 20,
      verification_method: null,
      verification_reference: null,
      verified_date: null,
      verified_by: null,
    });
  });

  it("a role with cis.sub.verify sees the verification inputs", async () => {
    const t = await createTenant({ modules: ["cis"], bundles: { lead: ["cis.read", "cis.sub.write", "cis.sub.verify"] } });
    const { b } = await setup("lead", { tenant: t });
    const doc = await page(await b.get(`${t.origin}/cis/subcontractors/new`));
    expect(field(doc, "verificationStatus").tagName.toLowerCase()).toBe("select");
    expect(pageText(doc)).not.toContain("Changing verification details needs the cis.sub.verify permission");
    const res = await b.post(`${t.origin}/cis/subcontractors/new`, validForm({ name: "Verifier Made", verificationStatus: "gross" }));
    expect(res.status).toBe(302);
    expect(await count("cis_subcontractors", "tenant_id = ? AND verification_status = 'gross'", t.id)).toBe(1);
  });
});

describe("encryption keys missing", () => {
  afterEach(() => vi.restoreAllMocks());

  /** A same-origin form post from the signed-in browser to a Worker whose environment lacks PII_KEYS. */
  async function postWithoutKeys(b: Browser, url: string, form: Record<string, string>) {
    const u = new URL(url);
    const headers = new Headers({ Origin: u.origin, Cookie: b.cookieHeader(u.host) });
    const { PII_KEYS: _dropped, ...rest } = env;
    const ctx = createExecutionContext();
    const res = await worker.fetch(
      new Request(url, { method: "POST", body: toForm(form), headers, redirect: "manual" }) as Parameters<typeof worker.fetch>[0],
      { ...rest, PII_KEYS: "" } as Env,
      ctx,
    );
    await waitOnExecutionContext(ctx);
    return res;
  }

  /** The page names a reference, and the log line carrying that reference holds the detail. */
  function expectReferenceForLoggedDetail(body: string, logged: string[], detail: string) {
    const ref = /Reference: ([A-Z0-9]{6,})/.exec(body)?.[1];
    expect(ref, "a reference on the page").toBeTruthy();
    expect(
      logged.find((l) => l.includes(ref ?? "?")),
      JSON.stringify(logged),
    ).toContain(detail);
  }

  function captureErrors() {
    const logged: string[] = [];
    vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
      logged.push(args.map((a) => (a instanceof Error ? `${a.message}` : String(a))).join(" "));
    });
    return logged;
  }

  it("the subcontractor form shows a reference, not the configuration error, and logs the detail under it", async () => {
    const { t, b } = await setup("lead");
    const logged = captureErrors();
    const res = await postWithoutKeys(b, `${t.origin}/cis/subcontractors/new`, validForm({ name: "Keyless Builder" }));
    expect(res.status).toBe(500);
    const body = await res.text();
    expect(body).not.toContain("PII_KEYS");
    expect(body).toContain("Failed to encrypt sensitive data");
    expectReferenceForLoggedDetail(body, logged, "PII_KEYS is not configured");
    expect(await count("cis_subcontractors", "tenant_id = ?", t.id)).toBe(0);
  });

  it("Reveal shows a reference, not the configuration error, and logs the detail under it", async () => {
    const t = await createTenant({ modules: ["cis"] });
    const { b } = await setup("admin", { tenant: t });
    const sub = await seedSub(t, { name: "Keyless Reveal" });
    const logged = captureErrors();
    const res = await postWithoutKeys(b, `${t.origin}/cis/subcontractors/${sub.id}`, { intent: "reveal", field: "utr" });
    expect(res.status).toBe(500);
    const body = await res.text();
    expect(body).not.toContain("PII_KEYS");
    expect(body).not.toContain(sub.utr);
    expect(body).toContain("Failed to decrypt sensitive data");
    expectReferenceForLoggedDetail(body, logged, "PII_KEYS is not configured");
  });
});
