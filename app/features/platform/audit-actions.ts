/**
 * Every action an audit entry may record, with the sentence the audit log shows for it. Names are
 * dotted lower case, `area.subject.event` (words inside a part joined by '_'); the audit helpers
 * accept only these names, so an unregistered or misspelt action fails typecheck.
 * Client-safe: no server imports.
 */
export const AUDIT_ACTIONS = {
  // Sign-in and sessions
  "auth.login.success": "Signed in",
  "auth.login.failed": "Sign-in failed",
  "auth.login.throttled": "Sign-in throttled",
  "auth.login.account_locked": "Account locked after failed sign-ins",
  "auth.code.sent": "Sign-in code sent",
  "auth.code.failed": "Sign-in code sending failed",
  "auth.code.invalid": "Wrong sign-in code entered",
  "auth.code.locked": "Sign-in code locked after wrong entries",
  "auth.code.refused": "Sign-in code refused",
  "auth.handover.issued": "Sign-in handed over to the workspace",
  "auth.handover.refused": "Sign-in handover refused",
  "auth.logout": "Signed out",
  "auth.scope.denied": "Access refused",

  // Team members
  "user.invited": "Team member invited",
  "user.activated": "Team member activated their account",
  "user.role_changed": "Team member's role changed",
  "user.disabled": "Team member disabled",
  "user.enabled": "Team member enabled",
  "user.scrubbed": "Team member's personal data erased",
  "user.password_changed": "Password changed",
  "user.password_reset_sent": "Password reset sent",
  "user.password_reset": "Password reset",
  "user.display_name_changed": "Display name changed",
  "user.session_revoked": "Session signed out",

  // Workspace settings
  "tenant.branding.updated": "Branding updated",
  "tenant.module.enabled": "Module switched on",
  "tenant.module.disabled": "Module switched off",

  // Platform console
  "superadmin.tenant.created": "Workspace created",
  "superadmin.tenant.suspended": "Workspace suspended",
  "superadmin.tenant.reinstated": "Workspace reinstated",
  "superadmin.module.enabled": "Module made available",
  "superadmin.module.disabled": "Module withdrawn",

  // CIS
  "cis.module.activated": "CIS activated",
  "cis.module.deactivated": "CIS deactivated",
  "cis.settings.updated": "CIS settings updated",
  "cis.permission.updated": "CIS permissions updated",
  "cis.permission.denied": "CIS access refused",
  "cis.error": "CIS error",
  "cis.pii.revealed": "Tax identifier revealed",
  "cis.subcontractor.created": "Subcontractor added",
  "cis.subcontractor.updated": "Subcontractor updated",
  "cis.subcontractor.verified": "Subcontractor verified",
  "cis.subcontractor.archived": "Subcontractor archived",
  "cis.subcontractor.reactivated": "Subcontractor reactivated",
  "cis.subcontractor.deleted": "Subcontractor deleted",
  "cis.invoice.created": "Invoice created",
  "cis.invoice.updated": "Invoice updated",
  "cis.invoice.approved": "Invoice approved",
  "cis.invoice.paid": "Invoice paid",
  "cis.invoice.cancelled": "Invoice cancelled",
  "cis.invoice.deleted": "Invoice deleted",
  "cis.invoice.statement_requested": "Statement requested for an invoice",
  "cis.invoice.emailed": "Invoice e-mailed",
  "cis.invoice.bulk.approve": "Invoices approved in bulk",
  "cis.invoice.bulk.pay": "Invoices paid in bulk",
  "cis.invoice.bulk.delete": "Invoices deleted in bulk",
  "cis.invoice.bulk.statement": "Statements requested in bulk",
  "cis.import.subcontractors": "Subcontractors imported",
  "cis.import.invoices": "Invoices imported",
  "cis.export.subcontractors": "Subcontractors exported",
  "cis.export.invoices": "Invoices exported",
  "cis.export.analytics": "Analytics exported",
  "cis.statement.generated": "Statement generated",
  "cis.statement.sent": "Statement issued",
  "cis.statement.resent": "Statement sent again",
  "cis.return.compiled": "Return compiled",
  "cis.return.amended": "Return amendment started",
  "cis.return.unlocked": "Return unlocked",
  "cis.return.exported": "Return exported",
  "cis.return.submitted": "Return submitted",
  "cis.hmrc.submitted": "Sent to HMRC",
  "cis.hmrc.accepted": "Accepted by HMRC",
  "cis.hmrc.rejected": "Rejected by HMRC",
  "cis.hmrc.failed": "HMRC submission failed",
  "cis.portal.invited": "Subcontractor invited to the portal",
  "cis.portal.link_refused": "Portal link refused",
  "cis.portal.signed_in": "Subcontractor signed in to the portal",
  "cis.portal.signed_out": "Subcontractor signed out of the portal",
  "portal.link.revealed": "Portal link shown",

  // Files and e-signature
  "files.file.uploaded": "File uploaded",
  "files.file.downloaded": "File downloaded",
  "files.file.shared": "File sharing changed",
  "files.file.moved": "File moved",
  "files.file.bulk_moved": "Files moved",
  "files.file.deleted": "File deleted",
  "files.file.bulk_deleted": "Files deleted",
  "files.folder.created": "Folder created",
  "files.folder.updated": "Folder updated",
  "files.folder.deleted": "Folder deleted",
  "files.storage.quota_exceeded": "Storage quota reached",
  "files.storage.usage_recalculated": "Storage usage recalculated",
  "files.exported": "Files exported",
  "files.signature.requested": "Signature requested",
  "files.signature.completed": "Document signed",
  "files.signature.declined": "Signature declined",
  "files.signature.stamped": "Signed PDF stamped",
} as const satisfies Record<string, string>;

export type AuditAction = keyof typeof AUDIT_ACTIONS;

export function isAuditAction(s: string): s is AuditAction {
  return Object.hasOwn(AUDIT_ACTIONS, s);
}

/** The sentence for a stored action; an unknown one (an old or foreign name) is shown as stored. */
export function auditSentence(action: string): string {
  if (isAuditAction(action)) return AUDIT_ACTIONS[action];
  return action;
}
