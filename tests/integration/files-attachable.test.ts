import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Role } from "~/db/schema";
import { DEFAULT_ROLE_BUNDLES } from "~/features/auth/default-bundles";
import { attachableFilesById, searchAttachableFiles } from "~/features/files/index.server";
import { createTenant, createUser, type TestTenant } from "../factories";
import { uploadOk } from "../factories/files";
import { signIn } from "./auth-helpers";

async function person(t: TestTenant, role: Role) {
  const u = await createUser(t, { role });
  const actor = { id: u.id, email: u.email, displayName: u.email, tenantId: t.id, scopes: [...DEFAULT_ROLE_BUNDLES[role]] };
  return { u, actor, b: await signIn(t, u) };
}

/** Gives the files one second apart in the given order, so "newest first" does not hang on the clock's resolution. */
async function spread(t: TestTenant, ids: string[]) {
  const base = Date.now() - 3_600_000;
  await env.DB.batch(ids.map((id, i) => env.DB.prepare("UPDATE files SET created_at = ? WHERE tenant_id = ? AND id = ?").bind(base + i * 1000, t.id, id)));
}

/** A tenant where the owner has a private, a restricted (to the recipient) and a shared file. */
async function setting() {
  const t = await createTenant({ modules: ["files"] });
  const owner = await person(t, "lead");
  const recipient = await person(t, "standard");
  const colleague = await person(t, "standard");
  const admin = await person(t, "admin");
  const priv = await uploadOk(owner.b, t, "Site plan private.pdf", "a", { visibility: "private" });
  const restricted = await uploadOk(owner.b, t, "Site plan restricted.pdf", "b", { visibility: "restricted", allowedUserIds: [recipient.u.id] });
  const shared = await uploadOk(owner.b, t, "Site plan shared.pdf", "c", { visibility: "shared" });
  await spread(t, [priv, restricted, shared]);
  return { t, owner, recipient, colleague, admin, priv, restricted, shared };
}

describe("files other features may attach", () => {
  it("finds by name only the files each person may see on the Files pages, newest first", async () => {
    const s = await setting();
    const names = async (actor: typeof s.owner.actor, q = "plan") => (await searchAttachableFiles(env, s.t.id, actor, { q })).map((f) => f.id);
    expect(await names(s.owner.actor)).toEqual([s.shared, s.restricted, s.priv]);
    expect(await names(s.recipient.actor)).toEqual([s.shared, s.restricted]);
    expect(await names(s.colleague.actor)).toEqual([s.shared]);
    expect(await names(s.admin.actor)).toEqual([s.shared, s.restricted, s.priv]);
    expect(await names(s.owner.actor, "restricted")).toEqual([s.restricted]);
    expect(await names(s.owner.actor, "nothing like it")).toEqual([]);
    // LIKE's wildcards are searched for as themselves.
    expect(await names(s.owner.actor, "%")).toEqual([]);
    expect(await names(s.owner.actor, "_")).toEqual([]);
  });

  it("returns at most 25 and honours a smaller limit", async () => {
    const t = await createTenant({ modules: ["files"] });
    const owner = await person(t, "lead");
    const ids: string[] = [];
    for (let i = 0; i < 27; i++) ids.push(await uploadOk(owner.b, t, `Delivery note ${i}.txt`, `${i}`));
    await spread(t, ids);
    expect(await searchAttachableFiles(env, t.id, owner.actor, { q: "", limit: 100 })).toHaveLength(25);
    const three = await searchAttachableFiles(env, t.id, owner.actor, { q: "delivery", limit: 3 });
    expect(three.map((f) => f.name)).toEqual(["Delivery note 26.txt", "Delivery note 25.txt", "Delivery note 24.txt"]);
  });

  it("re-reads attached ids leaving out what the person may not see now, another tenant's and unknown ids", async () => {
    const s = await setting();
    const other = await setting();
    const ids = [s.priv, s.restricted, s.shared, other.shared, "nope"];
    const seen = async (actor: typeof s.owner.actor) => (await attachableFilesById(env, s.t.id, actor, ids)).map((f) => f.id);
    expect(await seen(s.owner.actor)).toEqual([s.priv, s.restricted, s.shared]);
    expect(await seen(s.recipient.actor)).toEqual([s.restricted, s.shared]);
    expect(await seen(s.colleague.actor)).toEqual([s.shared]);
    // Asking with another tenant's id gives nothing, even for an admin of that other tenant.
    expect(await attachableFilesById(env, s.t.id, other.admin.actor, ids)).toEqual([]);
  });

  it("shows nothing to someone without files.view", async () => {
    const s = await setting();
    const noFiles = { ...s.colleague.actor, scopes: s.colleague.actor.scopes.filter((x) => !x.startsWith("files.")) };
    expect(await searchAttachableFiles(env, s.t.id, noFiles, { q: "" })).toEqual([]);
    expect(await attachableFilesById(env, s.t.id, noFiles, [s.shared])).toEqual([]);
  });
});
