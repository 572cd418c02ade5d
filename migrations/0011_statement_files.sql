CREATE TABLE `cis_statement_documents` (
	`tenant_id` text NOT NULL,
	`statement_id` text NOT NULL,
	`document` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`tenant_id`, `statement_id`),
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
ALTER TABLE `dev_mailbox` ADD `reply_to` text;--> statement-breakpoint
ALTER TABLE `dev_mailbox` ADD `attachments` text DEFAULT '[]' NOT NULL;