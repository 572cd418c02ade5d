import { describe, expect, it } from "vitest";
import { createTenant, createUser } from "../factories";
import { uploadOk } from "../factories/files";
import { all, page } from "../factories/html";
import { seedEvent } from "../factories/schedule";
import { signedIn } from "../factories/sessions";
import { count } from "./auth-helpers";

const attachedNames = async (b: Awaited<ReturnType<typeof signedIn>>, url: string) =>
  all(await page(await b.get(url)), "[data-testid=attachments] [data-file]").map((a) => a.textContent);

/** A tenant with the calendar and Files; a lead's organisation-wide event; a private and a shared file of the lead's, and a colleague's private file. */
async function setting() {
  const t = await createTenant({ modules: ["schedule", "files"] });
  const lead = await createUser(t, { role: "lead" });
  const colleague = await createUser(t, { role: "standard" });
  const lb = await signedIn(t, lead);
  const cb = await signedIn(t, colleague);
  const event = await seedEvent(t, { createdBy: lead.id, title: "Steel delivery", visibility: "org", sharedAll: true });
  const privateFile = await uploadOk(lb, t, "Crane plan private.pdf", "a", { visibility: "private" });
  const sharedFile = await uploadOk(lb, t, "Crane plan shared.pdf", "b", { visibility: "shared" });
  const theirs = await uploadOk(cb, t, "Crane plan colleague.pdf", "c", { visibility: "private" });
  return { t, lead, colleague, lb, cb, event, privateFile, sharedFile, theirs, url: `${t.origin}/schedule/${event}` };
}

describe("attachments from Files on events", () => {
  it("finds files by name without JavaScript, attaches them, and shows each viewer only the files they may see in Files", async () => {
    const s = await setting();
    const found = await page(await s.lb.get(`${s.url}?fileq=crane`));
    // The lead may attach their own files and shared ones, never a colleague's private file.
    expect(all(found, "[data-attach]").map((b) => b.getAttribute("data-attach"))).toEqual(expect.arrayContaining([s.privateFile, s.sharedFile]));
    expect(all(found, "[data-attach]").map((b) => b.getAttribute("data-attach"))).not.toContain(s.theirs);
    for (const fileId of [s.privateFile, s.sharedFile]) expect((await s.lb.post(s.url, { intent: "attach", fileId })).status).toBe(302);
    expect((await attachedNames(s.lb, s.url)).sort()).toEqual(["Crane plan private.pdf", "Crane plan shared.pdf"]);
    // The colleague sees the event but only the file Files shows them.
    expect(await attachedNames(s.cb, s.url)).toEqual(["Crane plan shared.pdf"]);
    expect(await count("audit_events", "tenant_id = ? AND action = 'schedule.event.updated' AND target_id = ?", s.t.id, s.event)).toBe(2);
    // Attaching again changes nothing.
    await s.lb.post(s.url, { intent: "attach", fileId: s.sharedFile });
    expect(await count("event_attachments", "tenant_id = ? AND event_id = ?", s.t.id, s.event)).toBe(2);
  });

  it("refuses a forged file id the person may not see, another tenant's file, and an attach by someone who may not change the event", async () => {
    const s = await setting();
    const other = await setting();
    expect((await s.lb.post(s.url, { intent: "attach", fileId: s.theirs })).status).toBe(302);
    expect((await s.lb.post(s.url, { intent: "attach", fileId: other.sharedFile })).status).toBe(302);
    expect(await count("event_attachments", "tenant_id = ?", s.t.id)).toBe(0);
    // The colleague may see the event but not change it.
    expect((await s.cb.post(s.url, { intent: "attach", fileId: s.sharedFile })).status).toBe(403);
    expect(all(await page(await s.cb.get(`${s.url}?fileq=crane`)), "[data-attach]")).toHaveLength(0);
    // Another tenant's event, asked for on one's own workspace, is a 404.
    expect((await s.lb.post(`${s.t.origin}/schedule/${other.event}`, { intent: "attach", fileId: s.sharedFile })).status).toBe(404);
    expect(await count("event_attachments", "tenant_id = ?", other.t.id)).toBe(0);
  });

  it("removes an attachment (the file stays in Files), and deleting the event removes its attachments", async () => {
    const s = await setting();
    await s.lb.post(s.url, { intent: "attach", fileId: s.sharedFile });
    await s.lb.post(s.url, { intent: "attach", fileId: s.privateFile });
    expect((await s.lb.post(s.url, { intent: "detach", fileId: s.privateFile })).status).toBe(302);
    expect(await attachedNames(s.lb, s.url)).toEqual(["Crane plan shared.pdf"]);
    expect(await count("files", "tenant_id = ? AND id = ?", s.t.id, s.privateFile)).toBe(1);
    expect((await s.lb.post(s.url, { intent: "delete-confirm" })).status).toBe(302);
    expect(await count("event_attachments", "tenant_id = ?", s.t.id)).toBe(0);
  });

  it("offers no attachments where Files is switched off", async () => {
    const t = await createTenant({ modules: ["schedule"] });
    const lead = await createUser(t, { role: "lead" });
    const b = await signedIn(t, lead);
    const event = await seedEvent(t, { createdBy: lead.id });
    expect(all(await page(await b.get(`${t.origin}/schedule/${event}?fileq=x`)), "#attachments-title")).toHaveLength(0);
  });
});
