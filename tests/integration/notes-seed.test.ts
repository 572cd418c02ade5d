import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { seedNotes, seedPlatform } from "~/db/seed";
import { textsOf, visit } from "../factories/html";
import { signIn } from "./auth-helpers";

describe("demo seed: acme's notes", () => {
  it("gives acme thirty notes in three folders, searchable, some shared; a second run changes nothing", async () => {
    const db = getDb(env);
    await seedPlatform(db, { pepper: env.PASSWORD_PEPPER });
    await seedNotes(db);
    const first = (await env.DB.prepare("SELECT * FROM notes WHERE tenant_id = 'tnt_acme' ORDER BY id").all()).results;
    await seedNotes(db, Date.now() + 86_400_000);
    expect((await env.DB.prepare("SELECT * FROM notes WHERE tenant_id = 'tnt_acme' ORDER BY id").all()).results).toEqual(first);
    expect(first.length).toBe(30);
    const b = await signIn(
      { id: "tnt_acme", slug: "acme", name: "Acme", host: "acme.localhost", origin: "http://acme.localhost" },
      { email: "lead@acme.test", password: "workspace-demo-2026" },
    );
    const found = await visit(b, "http://acme.localhost/notes/all?q=snag");
    expect(found.status).toBe(200);
    // The lead sees their own snagging lists, not the ones staff kept to themselves.
    expect(textsOf(found.doc, "[data-note-id] h3").sort()).toEqual(["Snagging list: communal areas", "Snagging list: plot 12"]);
    const shared = await visit(b, "http://acme.localhost/notes/shared");
    expect(textsOf(shared.doc, "[data-note-id] h3")).toContain("Toolbox talk: working at height");
  });
});
