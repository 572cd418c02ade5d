ALTER TABLE `events` ADD `series_id` text;--> statement-breakpoint
CREATE INDEX `events_tenant_series` ON `events` (`tenant_id`,`series_id`);