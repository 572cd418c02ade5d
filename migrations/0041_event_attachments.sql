CREATE TABLE `event_attachments` (
	`tenant_id` text NOT NULL,
	`event_id` text NOT NULL,
	`file_id` text NOT NULL,
	`created_by` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`event_id`, `file_id`)
);
--> statement-breakpoint
CREATE INDEX `event_attachments_tenant_event` ON `event_attachments` (`tenant_id`,`event_id`);