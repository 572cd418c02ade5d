/**
 * Every action an audit entry may record, with the sentence the audit log shows for it. Names are
 * dotted lower case, `area.subject.event` (words inside a part joined by '_'); the audit helpers
 * accept only these names, so an unregistered or misspelt action fails typecheck.
 *
 * A sentence is a template: `{actor}` is who did it (a member's name, a subcontractor's name for
 * portal events, the e-mail typed for a failed sign-in), `{target}` the name of what it was done to
 * (an invoice number, a file name: whatever the target's owner registers, see
 * audit-targets.server.ts), and any other `{key}` the entry's payload value of that key (a list
 * reads as its length).
 * Client-safe: no server imports.
 */
export const AUDIT_ACTIONS = {
  // Sign-in and sessions
  "auth.login.success": "{actor} signed in",
  "auth.login.failed": "A sign-in as {actor} failed",
  "auth.login.throttled": "Sign-in attempts as {actor} were paused after too many tries",
  "auth.login.account_locked": "An account was locked after repeated failed sign-ins",
  "auth.code.sent": "A sign-in code was sent to {actor}",
  "auth.code.failed": "A sign-in code could not be sent to {actor}",
  "auth.code.invalid": "{actor} entered a wrong sign-in code",
  "auth.code.locked": "{actor}'s sign-in code was locked after wrong entries",
  "auth.code.refused": "A new sign-in code for {actor} was refused",
  "auth.handover.issued": "{actor} was signed in to the workspace from the main site",
  "auth.handover.refused": "A sign-in from the main site was refused",
  "auth.logout": "{actor} signed out",
  "auth.scope.denied": "{actor} was refused access to a page",

  // Team members
  "user.invited": "{actor} invited {target} as {role}",
  "user.activated": "{target} activated their account",
  "user.role_changed": "{actor} changed {target}'s role from {from} to {to}",
  "user.disabled": "{actor} disabled {target}",
  "user.enabled": "{actor} enabled {target}",
  "user.scrubbed": "{actor} erased the personal data of {target}",
  "user.password_changed": "{actor} changed the password of {target}",
  "user.password_reset_sent": "{actor} sent {target} a password reset link",
  "user.password_reset": "{target} reset their password",
  "user.display_name_changed": "{actor} changed their display name",
  "user.session_revoked": "{actor} signed out one of {target}'s sessions",

  // Workspace settings
  "tenant.branding.updated": "{actor} updated the workspace's branding",
  "tenant.module.enabled": "{actor} switched on {target}",
  "tenant.module.disabled": "{actor} switched off {target}",

  // Platform console
  "superadmin.tenant.created": "{actor} created the workspace",
  "superadmin.tenant.suspended": "{actor} suspended the workspace",
  "superadmin.tenant.reinstated": "{actor} reinstated the workspace",
  "superadmin.module.enabled": "{actor} made module {moduleId} available to the workspace",
  "superadmin.module.disabled": "{actor} withdrew module {moduleId} from the workspace",

  // CIS
  "cis.module.activated": "{actor} switched CIS on",
  "cis.module.deactivated": "{actor} switched CIS off",
  "cis.settings.updated": "{actor} updated the CIS settings",
  "cis.permission.updated": "{actor} changed what {target} may do in CIS",
  "cis.permission.denied": "{actor} was refused access to a CIS page",
  "cis.error": "An error stopped a CIS action on subcontractor {target}",
  "cis.pii.revealed": "{actor} revealed a tax identifier of subcontractor {target}",
  "cis.subcontractor.created": "{actor} added subcontractor {target}",
  "cis.subcontractor.updated": "{actor} updated subcontractor {target}",
  "cis.subcontractor.verified": "{actor} verified subcontractor {target} with HMRC",
  "cis.subcontractor.archived": "{actor} archived subcontractor {target}",
  "cis.subcontractor.reactivated": "{actor} reactivated subcontractor {target}",
  "cis.subcontractor.deleted": "{actor} deleted subcontractor {target}",
  "cis.invoice.created": "{actor} created invoice {target}",
  "cis.invoice.updated": "{actor} updated invoice {target}",
  "cis.invoice.approved": "{actor} approved invoice {target}",
  "cis.invoice.paid": "{actor} marked invoice {target} paid",
  "cis.invoice.cancelled": "{actor} cancelled invoice {target}",
  "cis.invoice.deleted": "{actor} deleted invoice {target}",
  "cis.invoice.statement_requested": "{actor} asked for a statement for invoice {target}",
  "cis.invoice.emailed": "{actor} e-mailed invoice {target}",
  "cis.invoice.bulk.approve": "{actor} approved {count} invoices at once",
  "cis.invoice.bulk.pay": "{actor} marked {count} invoices paid at once",
  "cis.invoice.bulk.delete": "{actor} deleted {count} invoices at once",
  "cis.invoice.bulk.statement": "{actor} asked for statements for {count} invoices at once",
  "cis.import.subcontractors": "{actor} imported {count} subcontractors",
  "cis.import.invoices": "{actor} imported {count} invoices",
  "cis.export.subcontractors": "{actor} exported {rowCount} subcontractors",
  "cis.export.invoices": "{actor} exported {rowCount} invoices",
  "cis.export.analytics": "{actor} exported the CIS analytics",
  "cis.statement.generated": "{actor} generated {target}",
  "cis.statement.sent": "{actor} issued {target}",
  "cis.statement.resent": "{actor} sent {target} again",
  "cis.return.compiled": "{actor} compiled {target}",
  "cis.return.amended": "{actor} started an amendment of {target}",
  "cis.return.unlocked": "{actor} unlocked {target}",
  "cis.return.exported": "{actor} exported {target}",
  "cis.return.submitted": "{actor} submitted {target}",
  "cis.hmrc.submitted": "{actor} sent {target} to HMRC",
  "cis.hmrc.accepted": "HMRC accepted {target}",
  "cis.hmrc.rejected": "HMRC rejected {target}",
  "cis.hmrc.failed": "Sending {target} to HMRC failed",
  "cis.portal.invited": "{actor} invited subcontractor {target} to the portal",
  "cis.portal.link_refused": "A portal sign-in link was refused",
  "cis.portal.signed_in": "{actor} signed in to the portal",
  "cis.portal.signed_out": "{actor} signed out of the portal",
  "portal.link.revealed": "{actor} showed the portal link of subcontractor {target}",

  // Files and e-signature
  "files.file.uploaded": "{actor} uploaded {target}",
  "files.file.downloaded": "{actor} downloaded {target}",
  "files.file.shared": "{actor} changed who can see {target}",
  "files.file.moved": "{actor} moved {target}",
  "files.file.bulk_moved": "{actor} moved {target} with other files",
  "files.file.deleted": "{actor} deleted {target}",
  "files.file.bulk_deleted": "{actor} deleted {succeeded} files at once",
  "files.folder.created": "{actor} created folder {target}",
  "files.folder.updated": "{actor} changed folder {target}",
  "files.folder.deleted": "{actor} deleted folder {target}",
  "files.storage.quota_exceeded": "An upload by {actor} was refused: the storage quota is full",
  "files.storage.usage_recalculated": "{actor} recalculated the storage used",
  "files.exported": "{actor} exported a list of {rows} files",
  "files.signature.requested": "{actor} asked for {target} to be signed",
  "files.signature.completed": "{actor} signed {target}",
  "files.signature.declined": "{actor} declined to sign {target}",
  "files.signature.stamped": "The signatures were stamped into {target}",
  "cis.notice.recorded": "{actor} recorded a notice to HMRC, given on {givenOn}, of no payments for {months} months from {firstMonth}",

  // Chat
  "chat.group.created": "{actor} created the chat group {target}",
  "chat.group.renamed": "{actor} renamed the chat group {target}",
  "chat.member.added": "{actor} added {member} to the chat group {target}",
  "chat.member.removed": "{actor} removed {member} from the chat group {target}",
  "chat.member.left": "{actor} left the chat group {target}",
  "chat.member.promoted": "{actor} made {member} an admin of the chat group {target}",
  "chat.member.demoted": "{actor} took admin away from {member} in the chat group {target}",
  // Notes
  "notes.note.created": "{actor} created note {target}",
  "notes.note.edited": "{actor} edited note {target}",
  "notes.note.shared": "{actor} shared note {target} with {sharedWith} people",
  "notes.note.unshared": "{actor} stopped sharing note {target} with someone",
  "notes.note.trashed": "{actor} moved note {target} to the trash",
  "notes.note.restored": "{actor} restored note {target} from the trash",
  "notes.note.purged": "{actor} deleted note {target} for good",
  "notes.note.version_restored": "{actor} restored an earlier version of note {target}",
  "notes.folder.created": "{actor} created note folder {target}",
  "notes.folder.updated": "{actor} changed note folder {target}",
  "notes.folder.deleted": "{actor} deleted note folder {target}",
  "schedule.event.created": "{actor} added event {target} to the calendar",
  "schedule.event.updated": "{actor} changed event {target}",
  "schedule.event.deleted": "{actor} deleted event {title}",
  "schedule.calendar.created": "{actor} created calendar {target}",
  "schedule.calendar.updated": "{actor} changed calendar {target}",
  "schedule.calendar.archived": "{actor} archived calendar {target}",
  "schedule.team.saved": "{actor} saved team {target}",
  "schedule.site.saved": "{actor} saved site {target}",
  "schedule.team.deleted": "{actor} deleted team {name}",
  "schedule.site.deleted": "{actor} deleted site {name}",
  "schedule.feed.created": "{actor} created a calendar subscription link",
  "schedule.feed.revoked": "{actor} revoked their calendar subscription link",
  "cis.notice.updated": "{actor} corrected a notice of no payments: given on {givenOn}, for {months} months from {firstMonth}",
  "cis.notice.deleted": "{actor} deleted a notice of no payments given on {givenOn} for {months} months from {firstMonth}",
} as const satisfies Record<string, string>;

export type AuditAction = keyof typeof AUDIT_ACTIONS;

export function isAuditAction(s: string): s is AuditAction {
  return Object.hasOwn(AUDIT_ACTIONS, s);
}

/** What a sentence is filled with: the names the audit log's loader resolved, and the entry's payload. */
export type AuditSentenceParts = {
  /** The actor's name; null when the entry has none (a system job, an anonymous request). */
  actor?: string | null;
  /** The target's name; null when it has none or it no longer exists. */
  target?: string | null;
  payload?: unknown;
};

const PLACEHOLDER = /\{([a-zA-Z]+)\}/g;

/** An action name as words: 'SIGNATURE_STAMPED' and 'files.signature.stamped' both read "Signature stamped"-like. */
function readableAction(action: string): string {
  const words = action
    .split(/[._\s]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase())
    .join(" ");
  return words ? words[0]!.toUpperCase() + words.slice(1) : "Unnamed event";
}

function payloadValue(payload: unknown, key: string): string | null {
  if (!payload || typeof payload !== "object") return null;
  const value = (payload as Record<string, unknown>)[key];
  // A list (the ids a bulk action changed) reads as how many there were.
  if (Array.isArray(value)) return String(value.length);
  return typeof value === "string" || typeof value === "number" ? String(value) : null;
}

/**
 * The sentence the audit log shows for an entry. A registered action fills its template: an
 * unknown actor reads "The system" at the start of a sentence and "someone" inside it, a target
 * that no longer exists reads by the name its payload kept or "(since deleted)", a payload value
 * that was not recorded "(not recorded)". An action nobody registered (an old or foreign name)
 * reads as its words, with who did it and to what.
 */
export function auditSentence(action: string, parts: AuditSentenceParts = {}): string {
  const actor = parts.actor?.trim() || null;
  const target = parts.target?.trim() || payloadValue(parts.payload, "name");
  if (!isAuditAction(action)) {
    return `${readableAction(action)}${actor ? ` by ${actor}` : ""}${target ? `: ${target}` : ""}`;
  }
  const template = AUDIT_ACTIONS[action];
  const sentence = template.replace(PLACEHOLDER, (_, key: string, offset: number) => {
    if (key === "actor") return actor ?? (offset === 0 ? "The system" : "someone");
    if (key === "target") return target ?? "(since deleted)";
    return payloadValue(parts.payload, key) ?? "(not recorded)";
  });
  // A sentence that opens with a target written in lower case ("the return for …") starts with a
  // capital; a person's name or e-mail address is shown as it is.
  return template.startsWith("{actor}") ? sentence : sentence.charAt(0).toUpperCase() + sentence.slice(1);
}
