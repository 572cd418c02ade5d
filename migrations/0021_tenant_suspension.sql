ALTER TABLE `tenants` ADD `suspended_at` integer;--> statement-breakpoint
CREATE INDEX `audit_events_created` ON `audit_events` (`created_at`);--> statement-breakpoint
CREATE INDEX `audit_events_action_created` ON `audit_events` (`action`,`created_at`);