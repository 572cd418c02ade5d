import type { Role } from "~/db/schema";

/*
 * Families written out scope by scope: a default bundle names every scope it grants, so a scope
 * added to a family later (or one meant for administrators, such as files.manage_all, which lets
 * its holder read everyone's private files) reaches nobody by a wildcard.
 */

/** Files for a member who works with their own and shared files: no one else's private files. */
const FILES_MEMBER = [
  "files.view",
  "files.upload",
  "files.delete",
  "files.share",
  "files.folders.create",
  "files.folders.manage",
  "files.signatures.view",
  "files.signatures.create",
  "files.signatures.sign",
];
/** Every file and every signature request of the tenant: administrators only. */
const FILES_ADMIN = [...FILES_MEMBER, "files.manage_all", "files.signatures.manage"];
const SCHEDULE_ALL = ["schedule.view", "schedule.create", "schedule.edit", "schedule.delete"];
/** A lead plans their teams' work: the team and person filters. */
const SCHEDULE_LEAD = [...SCHEDULE_ALL, "schedule.edit_team"];
/** Managers and administrators see and run every calendar. */
const SCHEDULE_MANAGER = [...SCHEDULE_LEAD, "schedule.calendars.view_all", "schedule.calendars.manage"];
const CHAT_ALL = ["chat.view", "chat.send"];
const NOTES_MEMBER = ["notes.view", "notes.create", "notes.edit", "notes.delete", "notes.share", "notes.folders.create", "notes.folders.manage"];
const DOCS_ALL = ["docs.view", "docs.edit", "docs.manage"];

/**
 * The role bundles a new tenant starts with. The coarse CIS scopes grant the fine ones
 * (cis.read grants every read, cis.write the writes), so bundles stay short; cis.manage grants every CIS scope.
 */
export const DEFAULT_ROLE_BUNDLES: Record<Role, string[]> = {
  standard: [
    "notes.view",
    "notes.create",
    "notes.edit",
    "notes.share",
    "notes.folders.create",
    "docs.view",
    "files.view",
    "files.upload",
    // Anyone may be asked to sign a document; asking needs files.signatures.create.
    "files.signatures.view",
    "files.signatures.sign",
    "schedule.view",
    ...CHAT_ALL,
    "users.view",
    "cis.read",
  ],
  lead: [
    "notes.view",
    "notes.create",
    "notes.edit",
    "notes.delete",
    "notes.share",
    "notes.folders.create",
    "notes.folders.manage",
    "docs.view",
    "docs.edit",
    ...FILES_MEMBER,
    ...SCHEDULE_LEAD,
    ...CHAT_ALL,
    "users.view",
    "cis.read",
    "cis.write",
    "cis.export",
  ],
  manager: [
    "tenant.view_settings",
    "users.view",
    ...NOTES_MEMBER,
    ...DOCS_ALL,
    ...FILES_MEMBER,
    ...SCHEDULE_MANAGER,
    ...CHAT_ALL,
    "cis.read",
    "cis.approve",
    "cis.submit",
    "cis.ret.compile",
    "cis.export",
    "cis.import",
    "cis.settings.read",
    "cis.settings.write",
    "cis.portal.invite",
    "cis.jobs.run",
    "cis.stmt.issue",
  ],
  admin: [
    "tenant.view_settings",
    "tenant.edit_settings",
    "users.view",
    "users.manage",
    "users.scrub_pii",
    "branding.edit",
    "modules.edit",
    "billing.portal_access",
    ...NOTES_MEMBER,
    "notes.manage_all",
    ...DOCS_ALL,
    ...FILES_ADMIN,
    ...SCHEDULE_MANAGER,
    ...CHAT_ALL,
    "cis.manage",
  ],
};
