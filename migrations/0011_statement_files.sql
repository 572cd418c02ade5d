ALTER TABLE `dev_mailbox` ADD `reply_to` text;--> statement-breakpoint
ALTER TABLE `dev_mailbox` ADD `attachments` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `cis_statements` ADD `document` text;