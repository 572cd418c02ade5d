CREATE INDEX `jobs_parked` ON `jobs` (`tenant_id`) WHERE "jobs"."status" = 'parked';--> statement-breakpoint
CREATE INDEX `email_outbox_parked` ON `email_outbox` (`tenant_id`) WHERE "email_outbox"."status" = 'parked';--> statement-breakpoint
CREATE INDEX `hmrc_submissions_created` ON `hmrc_submissions` (`created_at`);