CREATE TABLE `chat_members` (
	`tenant_id` text NOT NULL,
	`room_id` text NOT NULL,
	`user_id` text NOT NULL,
	`role` text DEFAULT 'member' NOT NULL,
	`last_read_at` integer DEFAULT 0 NOT NULL,
	`joined_at` integer NOT NULL,
	PRIMARY KEY(`room_id`, `user_id`)
);
--> statement-breakpoint
CREATE INDEX `chat_members_tenant_user` ON `chat_members` (`tenant_id`,`user_id`);--> statement-breakpoint
CREATE TABLE `chat_messages` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`room_id` text NOT NULL,
	`sender_id` text NOT NULL,
	`client_id` text NOT NULL,
	`text` text NOT NULL,
	`created_at` integer NOT NULL,
	`edited_at` integer,
	`deleted_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `chat_messages_room_sender_client` ON `chat_messages` (`room_id`,`sender_id`,`client_id`);--> statement-breakpoint
CREATE INDEX `chat_messages_room_created` ON `chat_messages` (`room_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `chat_messages_tenant_sender_created` ON `chat_messages` (`tenant_id`,`sender_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `chat_rooms` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`kind` text NOT NULL,
	`name` text,
	`everyone` integer DEFAULT false NOT NULL,
	`direct_key` text,
	`created_by` text NOT NULL,
	`created_at` integer NOT NULL,
	`last_activity_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `chat_rooms_tenant_direct` ON `chat_rooms` (`tenant_id`,`direct_key`);--> statement-breakpoint
CREATE INDEX `chat_rooms_tenant_everyone` ON `chat_rooms` (`tenant_id`,`everyone`);