CREATE TABLE `submission_keys` (
	`tenant_id` text NOT NULL,
	`key` text NOT NULL,
	`user_id` text NOT NULL,
	`action` text NOT NULL,
	`result` text,
	`claim_id` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `submission_keys_tenant_key_unique` ON `submission_keys` (`tenant_id`,`key`);--> statement-breakpoint
CREATE INDEX `submission_keys_created_idx` ON `submission_keys` (`created_at`);