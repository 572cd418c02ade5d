CREATE TABLE `project_requests` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`email` text NOT NULL,
	`company` text,
	`message` text,
	`fingerprint` text NOT NULL,
	`outbox_id` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `project_requests_fingerprint` ON `project_requests` (`fingerprint`);--> statement-breakpoint
CREATE INDEX `project_requests_created` ON `project_requests` (`created_at`);