/**
 * The statements that may touch a tenant-owned table without a tenant_id condition, by call site
 * (`file › function`, the first frame of application code that issued the statement) and table.
 * Each is cross-tenant on purpose; the reason says why no tenant could be named or why the key
 * used is already one tenant's. The tenancy check (tests/tenancy/guard.ts) fails on any statement
 * not listed here. Recorded in ADR 0051; add to this list only with a reason a reviewer accepts.
 */
export type CrossTenantException = { site: string; tables: readonly string[]; reason: string };

export const CROSS_TENANT: readonly CrossTenantException[] = [
  // Housekeeping and cron sweeps: retention and expiry run for every tenant at once.
  {
    site: "app/features/auth/session.server.ts › purgeExpiredSessionsIn",
    tables: ["sessions"],
    reason: "cron: deletes expired and revoked sessions of every tenant",
  },
  {
    site: "app/features/auth/housekeeping.server.ts › purgeUsedTokensIn",
    tables: ["used_tokens"],
    reason: "cron: deletes expired burnt-token ids of every tenant in each shard",
  },
  {
    site: "app/features/auth/housekeeping.server.ts › purgeLoginChallengesIn",
    tables: ["login_challenges"],
    reason: "cron: deletes expired sign-in challenges of every tenant in each shard",
  },
  {
    site: "app/features/platform/submission-keys.server.ts › purgeSubmissionKeysIn",
    tables: ["submission_keys"],
    reason: "cron: deletes old one-time submission keys of every tenant",
  },
  { site: "app/features/platform/jobs/consumer.server.ts › purgeFinishedJobsIn", tables: ["jobs"], reason: "cron: deletes finished jobs of every tenant" },
  {
    site: "app/features/cis/hmrc/records.server.ts › sealLegacySubmissionsIn",
    tables: ["hmrc_submissions"],
    reason: "cron: finds unsealed HMRC XML in every tenant; each row is then sealed by an update naming its tenant",
  },
  {
    site: "app/features/cis/hmrc/records.server.ts › purgeExpiredSubmissionsIn",
    tables: ["hmrc_submissions"],
    reason: "cron: deletes HMRC records past retention in every tenant",
  },
  {
    site: "app/features/files/multipart-upload.server.ts › expireMultipartUploadsIn",
    tables: ["file_multipart_uploads"],
    reason: "cron: finds abandoned multipart uploads in every tenant; each is then aborted by its own tenant's id",
  },
  {
    site: "app/features/platform/email/outbox.server.ts › scrubExpiredEmailSecretsIn",
    tables: ["email_outbox"],
    reason: "cron: blanks expired link secrets in every tenant's outbox",
  },
  {
    site: "app/features/platform/email/outbox.server.ts › purgeEmailOutboxIn",
    tables: ["email_outbox"],
    reason: "cron: deletes old outbox rows of every tenant",
  },
  {
    site: "app/features/platform/email/dev-mailbox.server.ts › purgeDevMailbox",
    tables: ["dev_mailbox"],
    reason: "cron: deletes old development mail of every tenant",
  },

  {
    site: "app/features/cis/key-rotation.server.ts › all",
    tables: ["cis_subcontractors", "cis_statement_documents", "hmrc_submissions"],
    reason: "key rotation: re-encrypts stored identifiers and HMRC XML of every tenant with the newest key; each row is written back by its own tenant and id",
  },
  {
    site: "app/features/team/users.server.ts › scrubMember",
    tables: ["users"],
    reason: "erasure scrubs platform-level rows (no tenant) holding the person's e-mail only while no user of any workspace still has that address",
  },

  // The platform console: a super-admin looks across workspaces by design.
  {
    site: "app/features/superadmin/console.server.ts › consoleTenants",
    tables: ["storage_usage", "tenant_modules", "users"],
    reason: "super-admin console: every workspace's usage, modules and user count",
  },
  {
    site: "app/features/superadmin/console.server.ts › shardConsoleFigures",
    tables: ["storage_usage", "tenant_modules", "users"],
    reason: "super-admin console: the same figures from each shard other than the home database (ADR 0064)",
  },
  { site: "app/features/superadmin/console.server.ts › platformAuditPage", tables: ["audit_events"], reason: "super-admin console: the platform audit log" },
  {
    site: "app/features/superadmin/console.server.ts › shardAuditRows",
    tables: ["audit_events"],
    reason: "super-admin console: the platform audit log of each shard other than the home database (ADR 0064)",
  },

  // Queue consumers and senders: the message carries a row's unique id; the row carries its tenant.
  {
    site: "app/features/platform/email/consumer.server.ts › legacyOutboxRowIn",
    tables: ["email_outbox"],
    reason: "queue consumer: a message from before messages named their tenant is looked for on every shard by the row's unique id",
  },
  {
    site: "app/features/platform/email/consumer.server.ts › legacyOutboxRow",
    tables: ["email_outbox"],
    reason: "queue consumer: reads again, by its unique id, the row of a message from before messages named their tenant",
  },
  {
    site: "app/features/platform/email/send.server.ts › queue",
    tables: ["email_outbox"],
    reason:
      "after writing an outbox row, reads it back by its idempotency key (which embeds the tenant) and marks it by its unique id when the queue refuses the message",
  },
  {
    site: "app/features/platform/email/outbox.server.ts › failEmail",
    tables: ["email_outbox"],
    reason: "queue consumer: marks the outbox row it claimed, by its unique id and claimed status",
  },
  {
    site: "app/features/platform/email/consumer.server.ts › handleEmailDeadLetters",
    tables: ["email_outbox"],
    reason: "dead-letter consumer: reads the outbox row a dead message names, by its unique id",
  },
  {
    site: "app/features/platform/email/dev-mailbox.server.ts › listDevMailbox",
    tables: ["dev_mailbox"],
    reason: "the development mailbox page (development only, never served in production) lists the mail of every local workspace",
  },
  {
    site: "app/features/platform/email/send.server.ts › sendToQueue",
    tables: ["email_outbox"],
    reason: "marks the outbox row just written (by its unique id, or its idempotency key, which embeds the tenant) as refused by the queue",
  },

  // Secrets that identify one row of one tenant: a session token's hash, a signed token's id.
  {
    site: "app/features/auth/session.server.ts › revokeSession",
    tables: ["sessions"],
    reason: "revokes the session whose secret token the browser presented (its hash is unique)",
  },
  {
    site: "app/features/cis/portal-invites/portal-invites.server.ts › isTokenUsed",
    tables: ["used_tokens"],
    reason: "whether a verified token's id (unique, signed for one tenant's audience) has been burnt",
  },
  {
    site: "app/features/cis/portal-invites/portal-invites.server.ts › recordReveal",
    tables: ["used_tokens"],
    reason: "the reveal is refused when the invite's token id (unique, signed for this tenant) is burnt; the invite itself is matched by tenant_id",
  },
  {
    site: "app/features/team/password-reset.server.ts › checkResetLink",
    tables: ["used_tokens"],
    reason: "whether a verified reset token's id (unique, signed for one tenant's audience) has been burnt",
  },
  {
    site: "app/features/team/password-reset.server.ts › resetPassword",
    tables: ["used_tokens"],
    reason: "the password changes only while the reset token's id (unique, signed for this tenant) is burnt by this attempt; the user is matched by tenant_id",
  },

  {
    site: "app/features/auth/sign-in.server.ts › startChallenge",
    tables: ["login_challenges"],
    reason: "replaces this browser's previous sign-in challenge, named by its random id from the signed cookie",
  },
  {
    site: "app/features/auth/sign-in.server.ts › accountWithEmailIn",
    tables: ["users"],
    reason: "an account locked everywhere (its e-mail address across workspaces) is told once: the users with that address are looked up by it",
  },
  {
    site: "app/features/auth/sign-in.server.ts › liveChallengeIn",
    tables: ["login_challenges"],
    reason: "the sign-in challenge named by its random id from this browser's signed cookie; the row says its tenant (none for platform admins)",
  },
  {
    site: "app/features/cis/subcontractors/utr-check.server.ts › utrCheckIn",
    tables: ["cis_subcontractors"],
    reason: "cron: finds UTRs not yet checked in every tenant; each flag is then written by an update naming its tenant",
  },
  {
    site: "app/features/notes/notes.server.ts › purgeExpiredTrashIn",
    tables: ["notes"],
    reason: "cron: finds notes past the 30-day trash period in every tenant; each tenant's are then deleted by statements naming it",
  },
];
