CREATE TABLE `file_multipart_parts` (
	`tenant_id` text NOT NULL,
	`upload_id` text NOT NULL,
	`part_number` integer NOT NULL,
	`etag` text NOT NULL,
	`size` integer NOT NULL,
	PRIMARY KEY(`upload_id`, `part_number`)
);
--> statement-breakpoint
CREATE TABLE `file_multipart_uploads` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`user_id` text NOT NULL,
	`state` text DEFAULT 'open' NOT NULL,
	`storage_key` text NOT NULL,
	`r2_upload_id` text NOT NULL,
	`file_id` text NOT NULL,
	`version` integer NOT NULL,
	`name` text NOT NULL,
	`mime_type` text NOT NULL,
	`category` text NOT NULL,
	`size` integer NOT NULL,
	`part_size` integer NOT NULL,
	`visibility` text NOT NULL,
	`folder_id` text,
	`allowed_user_ids` text NOT NULL,
	`created_at` integer NOT NULL,
	`touched_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `file_multipart_uploads_tenant_user` ON `file_multipart_uploads` (`tenant_id`,`user_id`);--> statement-breakpoint
CREATE INDEX `file_multipart_uploads_touched` ON `file_multipart_uploads` (`touched_at`);