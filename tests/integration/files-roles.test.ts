import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { mintKey, SUBMISSION_KEY_FIELD } from "../factories/submission-keys";
import type { Role } from "~/db/schema";
import { DEFAULT_ROLE_BUNDLES } from "~/features/auth/default-bundles";
import { createTenant, createUser } from "../factories";
import { upload, uploadOk } from "../factories/files";
import { signedIn } from "../factories/sessions";
import type { Browser } from "./http";

type Actor = "owner" | "recipient" | "colleague" | "admin";
type Visibility = "private" | "restricted" | "shared";
type Action = "read" | "download" | "newVersion" | "share" | "delete";
const ACTIONS: Action[] = ["read", "download", "newVersion", "share", "delete"];

// Answers: 200 a page or a file; 302 done and redirected; 403 seen but not theirs to change; 404 not seen at all.
const ALL = { read: 200, download: 200, newVersion: 200, share: 302, delete: 302 } as const;
const LOOK_ONLY = { read: 200, download: 200, newVersion: 403, share: 403, delete: 403 } as const;
const NOTHING = { read: 404, download: 404, newVersion: 404, share: 404, delete: 404 } as const;

/**
 * Who may do what to a file, written out by hand. Private: the owner only (and an admin, who
 * manages all files). Restricted: also the people it is shared with, to look. Shared (the
 * whole organisation): everyone may look; only the owner and an admin change it. The recipient
 * of a private file is someone it was never shared with: private files are shared with nobody.
 */
const TABLE: Record<Visibility, Record<Actor, Record<Action, number>>> = {
  private: { owner: ALL, recipient: NOTHING, colleague: NOTHING, admin: ALL },
  restricted: { owner: ALL, recipient: LOOK_ONLY, colleague: NOTHING, admin: ALL },
  shared: { owner: ALL, recipient: LOOK_ONLY, colleague: LOOK_ONLY, admin: ALL },
};

async function act(
  b: Browser,
  origin: string,
  t: Parameters<typeof upload>[1],
  id: string,
  action: Action,
  shareWith: string,
  userId: string,
): Promise<number> {
  switch (action) {
    case "read":
      return (await b.get(`${origin}/files/file/${id}`)).status;
    case "download":
      return (await b.get(`${origin}/files/file/${id}/download`)).status;
    case "newVersion":
      return (await upload(b, t, { name: "next.txt", content: "next", type: "text/plain" }, { fileId: id }, { xhr: true })).status;
    case "share":
      // A valid one-time key of this person's, so the answer is the permission's, not the key's.
      return (
        await b.post(`${origin}/files/file/${id}`, {
          intent: "share",
          userIds: [shareWith],
          [SUBMISSION_KEY_FIELD]: await mintKey(t, { id: userId }, `files.share:${id}`),
        })
      ).status;
    case "delete":
      return (await b.post(`${origin}/files/file/${id}`, { intent: "delete", confirmed: "yes" })).status;
  }
}

describe("files: role x visibility x action", () => {
  for (const role of ["lead", "manager"] as const satisfies Role[]) {
    it(`owner, recipient and colleague as ${role}s, and an admin: every cell as the table says`, async () => {
      const t = await createTenant({ modules: ["files"] });
      const people = {
        owner: await createUser(t, { role }),
        recipient: await createUser(t, { role }),
        colleague: await createUser(t, { role }),
        admin: await createUser(t, { role: "admin" }),
      };
      const bystander = await createUser(t, { role: "standard" });
      const browsers = Object.fromEntries(await Promise.all(Object.entries(people).map(async ([k, u]) => [k, await signedIn(t, u)]))) as Record<Actor, Browser>;
      const got: string[] = [];
      const want: string[] = [];
      for (const visibility of ["private", "restricted", "shared"] as const) {
        for (const actor of ["recipient", "colleague", "admin", "owner"] as const) {
          // A fresh file for each person, since sharing and deleting change it.
          const fields: Record<string, string | string[]> =
            visibility === "restricted" ? { visibility, allowedUserIds: [people.recipient.id] } : { visibility };
          const id = await uploadOk(browsers.owner, t, `${visibility}-${actor}.txt`, "content", fields);
          for (const action of ACTIONS) {
            const status = await act(browsers[actor], t.origin, t, id, action, bystander.id, people[actor].id);
            got.push(`${visibility} ${actor} ${action}: ${status}`);
            want.push(`${visibility} ${actor} ${action}: ${TABLE[visibility][actor][action]}`);
          }
          // Whatever was refused changed nothing.
          const row = await env.DB.prepare("SELECT version FROM files WHERE id = ?").bind(id).first<{ version: number }>();
          if (TABLE[visibility][actor].delete === 302) expect(row).toBeNull();
          else expect(row).toEqual({ version: 1 });
        }
      }
      expect(got).toEqual(want);
    });
  }

  it("the migration writes out stored bundles' wildcards, keeping every other scope, and files.manage_all only for admin", async () => {
    // A tenant made before the change: the bundles as they were, plus a scope the tenant added.
    const OLD: Record<Role, string[]> = {
      standard: ["notes.view", "files.view", "chat.*", "cis.read"],
      lead: ["notes.view", "files.*", "schedule.*", "chat.*", "cis.read", "cis.write"],
      manager: ["tenant.view_settings", "notes.*", "docs.*", "files.*", "schedule.*", "chat.*", "cis.read", "cis.pii.unmask"],
      admin: ["users.manage", "notes.*", "docs.*", "files.*", "schedule.*", "chat.*", "cis.manage"],
    };
    const t = await createTenant({ modules: ["files"], bundles: OLD });
    const before = await env.DB.prepare("SELECT name, updated_at FROM role_bundles WHERE tenant_id = ?").bind(t.id).all<{ name: string; updated_at: number }>();
    const migration = (env.TEST_MIGRATIONS ?? []).find((m) => m.name.includes("expand_role_wildcards"));
    expect(migration).toBeTruthy();
    for (const q of migration!.queries) await env.DB.prepare(q).run();
    const rows = await env.DB.prepare("SELECT name, scopes, updated_at FROM role_bundles WHERE tenant_id = ?")
      .bind(t.id)
      .all<{ name: Role; scopes: string; updated_at: number }>();
    const after = Object.fromEntries(rows.results.map((r) => [r.name, JSON.parse(r.scopes) as string[]])) as Record<Role, string[]>;
    expect(after.standard).toEqual(["notes.view", "files.view", "cis.read", "chat.view", "chat.send"]);
    for (const role of ["lead", "manager", "admin"] as const) {
      expect(
        after[role].filter((s) => s.includes("*")),
        role,
      ).toEqual([]);
      expect(after[role].includes("files.manage_all"), role).toBe(role === "admin");
      expect(after[role].includes("files.signatures.manage"), role).toBe(role === "admin");
      for (const s of ["files.view", "files.upload", "files.delete", "files.share", "files.signatures.create", "schedule.view", "chat.send"])
        expect(after[role], role).toContain(s);
    }
    expect(after.manager).toContain("cis.pii.unmask");
    expect(after.manager.includes("notes.manage_all")).toBe(false);
    expect(after.admin).toContain("notes.manage_all");
    expect(after.admin.slice(0, 1)).toEqual(["users.manage"]);
    for (const r of rows.results) expect(r.updated_at).toBeGreaterThan(before.results.find((b) => b.name === r.name)!.updated_at);
    // A second run changes nothing.
    for (const q of migration!.queries) await env.DB.prepare(q).run();
    const again = await env.DB.prepare("SELECT name, scopes FROM role_bundles WHERE tenant_id = ?").bind(t.id).all<{ name: Role; scopes: string }>();
    for (const r of again.results) expect(JSON.parse(r.scopes), r.name).toEqual(after[r.name]);
  });

  it("no default bundle holds a wildcard, and only the admin's manages all files", () => {
    for (const [role, scopes] of Object.entries(DEFAULT_ROLE_BUNDLES)) {
      expect(
        scopes.filter((s) => s.includes("*")),
        role,
      ).toEqual([]);
      expect(scopes.includes("files.manage_all"), role).toBe(role === "admin");
    }
  });
});
