CREATE TABLE `file_access` (
	`tenant_id` text NOT NULL,
	`file_id` text NOT NULL,
	`user_id` text NOT NULL,
	`via` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`file_id`, `user_id`)
);
--> statement-breakpoint
CREATE INDEX `file_access_tenant_user` ON `file_access` (`tenant_id`,`user_id`);--> statement-breakpoint
CREATE TABLE `file_folders` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`name` text NOT NULL,
	`color` text DEFAULT '#64748b' NOT NULL,
	`icon` text DEFAULT 'folder' NOT NULL,
	`parent_id` text,
	`slug` text NOT NULL,
	`path` text NOT NULL,
	`created_by` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `file_folders_tenant_path` ON `file_folders` (`tenant_id`,`path`);--> statement-breakpoint
CREATE INDEX `file_folders_tenant_parent` ON `file_folders` (`tenant_id`,`parent_id`);--> statement-breakpoint
CREATE TABLE `file_versions` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`file_id` text NOT NULL,
	`version` integer NOT NULL,
	`storage_key` text NOT NULL,
	`size` integer NOT NULL,
	`mime_type` text NOT NULL,
	`type` text DEFAULT 'original' NOT NULL,
	`created_by` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `file_versions_file_version` ON `file_versions` (`file_id`,`version`);--> statement-breakpoint
CREATE INDEX `file_versions_tenant_file` ON `file_versions` (`tenant_id`,`file_id`);--> statement-breakpoint
CREATE TABLE `files` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`name` text NOT NULL,
	`size` integer NOT NULL,
	`stored_bytes` integer NOT NULL,
	`mime_type` text NOT NULL,
	`category` text NOT NULL,
	`storage_key` text NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	`visibility` text DEFAULT 'private' NOT NULL,
	`folder_id` text,
	`owner_id` text NOT NULL,
	`owner_email` text NOT NULL,
	`owner_name` text NOT NULL,
	`signed` integer DEFAULT false NOT NULL,
	`pending_sign` integer DEFAULT false NOT NULL,
	`signed_at` integer,
	`signed_file_key` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `files_tenant_created` ON `files` (`tenant_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `files_tenant_owner_created` ON `files` (`tenant_id`,`owner_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `files_tenant_visibility_created` ON `files` (`tenant_id`,`visibility`,`created_at`);--> statement-breakpoint
CREATE INDEX `files_tenant_folder` ON `files` (`tenant_id`,`folder_id`);--> statement-breakpoint
CREATE TABLE `storage_daily` (
	`tenant_id` text NOT NULL,
	`day` text NOT NULL,
	`bytes_added` integer DEFAULT 0 NOT NULL,
	`bytes_removed` integer DEFAULT 0 NOT NULL,
	`uploads` integer DEFAULT 0 NOT NULL,
	`shared` integer DEFAULT 0 NOT NULL,
	`deleted` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`tenant_id`, `day`)
);
--> statement-breakpoint
CREATE TABLE `storage_reservations` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`bytes` integer NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `storage_reservations_tenant_created` ON `storage_reservations` (`tenant_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `storage_usage` (
	`tenant_id` text PRIMARY KEY NOT NULL,
	`tier` text DEFAULT 'free' NOT NULL,
	`custom_limit` integer,
	`used_bytes` integer DEFAULT 0 NOT NULL,
	`file_count` integer DEFAULT 0 NOT NULL,
	`category_bytes` text DEFAULT '{}' NOT NULL,
	`last_calculated` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
