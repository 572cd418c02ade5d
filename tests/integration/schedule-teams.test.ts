import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createTenant, createUser } from "../factories";
import { fieldMessage, page, textOf } from "../factories/html";
import { scheduleStaff, seedSite, seedTeam } from "../factories/schedule";
import { signedIn } from "../factories/sessions";
import { count } from "./auth-helpers";

describe("teams and sites in the workspace settings", () => {
  it("an administrator creates a team and a site with members, shown on each person's row in Users", async () => {
    const { t, b } = await scheduleStaff("admin");
    const ali = await createUser(t, { email: "ali@example.test" });
    const bea = await createUser(t, { email: "bea@example.test" });
    expect((await b.post(`${t.origin}/settings/teams`, { kind: "team", name: "Groundworks", members: [ali.id, bea.id] })).status).toBe(302);
    expect((await b.post(`${t.origin}/settings/teams`, { kind: "team", name: "Brickies", members: [ali.id] })).status).toBe(302);
    expect((await b.post(`${t.origin}/settings/teams`, { kind: "site", name: "Leeds Road", members: [bea.id] })).status).toBe(302);
    expect(await count("audit_events", "tenant_id = ? AND action = 'schedule.team.saved'", t.id)).toBe(2);
    const dup = await b.post(`${t.origin}/settings/teams`, { kind: "team", name: "groundworks", members: [] });
    expect(dup.status).toBe(400);
    expect(fieldMessage(await page(dup), "name")).toBe("That name is already used");
    const users = await page(await b.get(`${t.origin}/settings/users`));
    expect(textOf(users, `tr[data-user="ali@example.test"] [data-testid="groups"]`)).toBe("Teams: Brickies, Groundworks");
    expect(textOf(users, `tr[data-user="bea@example.test"] [data-testid="groups"]`)).toBe("Teams: GroundworksSites: Leeds Road");
  });

  it("changes members and deletes a team; another tenant's team is a 404; only tenant.edit_settings may open the page", async () => {
    const { t, u, b } = await scheduleStaff("admin");
    const team = await seedTeam(t, "Roofers", [u.id]);
    const other = await createUser(t);
    expect((await b.post(`${t.origin}/settings/teams`, { kind: "team", id: team, name: "Roofers", members: [other.id] })).status).toBe(302);
    const members = await env.DB.prepare("SELECT user_id FROM team_members WHERE team_id = ?").bind(team).all<{ user_id: string }>();
    expect(members.results.map((r) => r.user_id)).toEqual([other.id]);
    const foreign = await scheduleStaff("admin");
    const theirs = await seedSite(foreign.t, "Their site", [foreign.u.id]);
    expect((await b.post(`${t.origin}/settings/teams`, { kind: "site", id: theirs, name: "Mine now", members: [] })).status).toBe(404);
    expect((await b.post(`${t.origin}/settings/teams`, { kind: "site", id: theirs, intent: "delete" })).status).toBe(404);
    expect((await b.post(`${t.origin}/settings/teams`, { kind: "team", id: team, intent: "delete" })).status).toBe(302);
    expect(await count("teams", "id = ?", team)).toBe(0);
    expect(await count("team_members", "team_id = ?", team)).toBe(0);
    expect(await count("sites", "id = ?", theirs)).toBe(1);
    const lead = await createUser(t, { role: "lead" });
    const lb = await signedIn(t, lead);
    expect((await lb.get(`${t.origin}/settings/teams`)).status).toBe(403);
    expect((await lb.post(`${t.origin}/settings/teams`, { kind: "team", name: "Sneaky", members: [] })).status).toBe(403);
  });

  it("'My teams' and 'My sites' record the author's teams and first site; a lead filters the calendar by team", async () => {
    const { t, u, b } = await scheduleStaff("lead");
    const crew = await createUser(t);
    const team = await seedTeam(t, "Groundworks", [u.id, crew.id]);
    await seedSite(t, "Zeta Park", [u.id]);
    const first = await seedSite(t, "Alpha Yard", [u.id]);
    const base = {
      startDate: "2026-06-10",
      startTime: "08:00",
      endDate: "2026-06-10",
      endTime: "09:00",
      type: "shift",
      status: "green",
      calendarId: "",
      repeat: "none",
    };
    await b.post(`${t.origin}/schedule/new`, { ...base, title: "Team shift", visibility: "team" });
    await b.post(`${t.origin}/schedule/new`, { ...base, title: "Site shift", visibility: "site" });
    const teamEv = await env.DB.prepare("SELECT id, shared_all FROM events WHERE tenant_id = ? AND title = 'Team shift'")
      .bind(t.id)
      .first<{ id: string; shared_all: number }>();
    expect(teamEv?.shared_all).toBe(1);
    expect((await env.DB.prepare("SELECT team_id FROM event_teams WHERE event_id = ?").bind(teamEv!.id).all()).results).toEqual([{ team_id: team }]);
    const siteEv = await env.DB.prepare("SELECT site_id FROM events WHERE tenant_id = ? AND title = 'Site shift'").bind(t.id).first<{ site_id: string }>();
    expect(siteEv?.site_id).toBe(first);
    // The team filter: events created by the team's members.
    const crewb = await signedIn(t, crew);
    void crewb;
    const filtered = await page(await b.get(`${t.origin}/schedule?view=month&date=2026-06-10&team=${team}`));
    expect(filtered.body.textContent).toContain("Team shift");
  });

  it("the workspace settings link to Teams and sites while the calendar is on", async () => {
    const linked = async (b: Awaited<ReturnType<typeof scheduleStaff>>["b"], origin: string) =>
      [...(await page(await b.get(`${origin}/settings/branding`))).querySelectorAll('nav[aria-label="Settings"] a')].map((a) => a.getAttribute("href"));
    const on = await scheduleStaff("admin");
    expect(await linked(on.b, on.t.origin)).toEqual(["/settings/branding", "/settings/modules", "/settings/teams"]);
    const off = await scheduleStaff("admin", await createTenant({ modules: ["files"] }));
    expect(await linked(off.b, off.t.origin)).toEqual(["/settings/branding", "/settings/modules"]);
  });
});
