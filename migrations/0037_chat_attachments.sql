CREATE TABLE `chat_message_files` (
	`tenant_id` text NOT NULL,
	`room_id` text NOT NULL,
	`message_id` text NOT NULL,
	`file_id` text NOT NULL,
	`position` integer NOT NULL,
	PRIMARY KEY(`message_id`, `file_id`)
);
--> statement-breakpoint
CREATE INDEX `chat_message_files_tenant_room` ON `chat_message_files` (`tenant_id`,`room_id`,`message_id`);--> statement-breakpoint
ALTER TABLE `chat_messages` ADD `file_count` integer DEFAULT 0 NOT NULL;