CREATE TABLE `note_drafts` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`user_id` text NOT NULL,
	`title` text DEFAULT '' NOT NULL,
	`content` text DEFAULT '' NOT NULL,
	`tags` text DEFAULT '[]' NOT NULL,
	`color` text,
	`folder_id` text,
	`saved_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `note_drafts_tenant_user_saved` ON `note_drafts` (`tenant_id`,`user_id`,`saved_at`);--> statement-breakpoint
CREATE TABLE `note_folders` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`name` text NOT NULL,
	`color` text NOT NULL,
	`created_by` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `note_folders_tenant_created` ON `note_folders` (`tenant_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `note_preferences` (
	`tenant_id` text NOT NULL,
	`user_id` text NOT NULL,
	`view_mode` text DEFAULT 'grid' NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`tenant_id`, `user_id`)
);
--> statement-breakpoint
CREATE TABLE `note_shares` (
	`tenant_id` text NOT NULL,
	`note_id` text NOT NULL,
	`user_id` text NOT NULL,
	`shared_by` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`note_id`, `user_id`)
);
--> statement-breakpoint
CREATE INDEX `note_shares_tenant_user` ON `note_shares` (`tenant_id`,`user_id`);--> statement-breakpoint
CREATE TABLE `note_versions` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`note_id` text NOT NULL,
	`version` integer NOT NULL,
	`title` text NOT NULL,
	`content` text NOT NULL,
	`tags` text NOT NULL,
	`edited_by` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `note_versions_tenant_note_version` ON `note_versions` (`tenant_id`,`note_id`,`version`);--> statement-breakpoint
CREATE TABLE `notes` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`title` text DEFAULT '' NOT NULL,
	`content` text DEFAULT '' NOT NULL,
	`text` text DEFAULT '' NOT NULL,
	`tags` text DEFAULT '[]' NOT NULL,
	`color` text,
	`folder_id` text,
	`is_pinned` integer DEFAULT false NOT NULL,
	`is_favorite` integer DEFAULT false NOT NULL,
	`owner_id` text NOT NULL,
	`updated_by` text NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`deleted_at` integer
);
--> statement-breakpoint
CREATE INDEX `notes_tenant_owner_order` ON `notes` (`tenant_id`,`owner_id`,`deleted_at`,`is_pinned`,`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `notes_tenant_order` ON `notes` (`tenant_id`,`deleted_at`,`is_pinned`,`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `notes_tenant_folder` ON `notes` (`tenant_id`,`folder_id`);--> statement-breakpoint
CREATE INDEX `notes_tenant_deleted` ON `notes` (`tenant_id`,`deleted_at`);