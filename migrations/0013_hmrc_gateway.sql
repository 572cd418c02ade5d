CREATE TABLE `dev_hmrc_messages` (
	`id` text PRIMARY KEY NOT NULL,
	`correlation_id` text,
	`message_class` text,
	`qualifier` text,
	`function` text,
	`employer_ref` text,
	`request_xml` text NOT NULL,
	`response_xml` text NOT NULL,
	`outcome` text NOT NULL,
	`final_response_xml` text,
	`pending_polls` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `dev_hmrc_messages_created` ON `dev_hmrc_messages` (`created_at`);--> statement-breakpoint
CREATE INDEX `dev_hmrc_messages_correlation` ON `dev_hmrc_messages` (`correlation_id`);--> statement-breakpoint
CREATE TABLE `dev_hmrc_modes` (
	`employer_ref` text PRIMARY KEY NOT NULL,
	`mode` text NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `hmrc_submissions` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`kind` text NOT NULL,
	`subject_ids` text NOT NULL,
	`subject_key` text NOT NULL,
	`active_key` text,
	`status` text DEFAULT 'queued' NOT NULL,
	`transport` text NOT NULL,
	`message_class` text NOT NULL,
	`request_xml` text NOT NULL,
	`irmark` text,
	`correlation_id` text,
	`response_endpoint` text,
	`poll_interval_seconds` integer,
	`poll_count` integer DEFAULT 0 NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`sent_at` integer,
	`acknowledged_at` integer,
	`response_xml` text,
	`receipt` text,
	`receipt_irmark` text,
	`errors` text,
	`failure_code` text,
	`result_token` text,
	`finished_at` integer,
	`deleted_at` integer,
	`delete_error` text,
	`created_by` text,
	`created_by_email` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `hmrc_submissions_active` ON `hmrc_submissions` (`tenant_id`,`active_key`);--> statement-breakpoint
CREATE INDEX `hmrc_submissions_subject` ON `hmrc_submissions` (`tenant_id`,`subject_key`,`created_at`);--> statement-breakpoint
CREATE INDEX `hmrc_submissions_kind` ON `hmrc_submissions` (`tenant_id`,`kind`,`created_at`);--> statement-breakpoint
ALTER TABLE `cis_settings` ADD `gateway_sender_id_enc` text;--> statement-breakpoint
ALTER TABLE `cis_settings` ADD `gateway_password_enc` text;--> statement-breakpoint
ALTER TABLE `cis_settings` ADD `gateway_credentials_updated_at` integer;