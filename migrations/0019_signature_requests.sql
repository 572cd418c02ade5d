CREATE TABLE `signature_requests` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`file_id` text NOT NULL,
	`file_name` text NOT NULL,
	`original_key` text NOT NULL,
	`original_version` integer NOT NULL,
	`requester_id` text NOT NULL,
	`signer_id` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`signature_kind` text,
	`signature_text` text,
	`signature_font` text,
	`signature_path` text,
	`signer_ip` text,
	`signed_at` integer,
	`decline_reason` text,
	`declined_at` integer,
	`stamp_status` text,
	`original_sha256` text,
	`signed_key` text,
	`signed_sha256` text,
	`stamped_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `signature_requests_pending_file` ON `signature_requests` (`tenant_id`,`file_id`) WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX `signature_requests_tenant_signer` ON `signature_requests` (`tenant_id`,`signer_id`,`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `signature_requests_tenant_requester` ON `signature_requests` (`tenant_id`,`requester_id`,`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `signature_requests_tenant_status` ON `signature_requests` (`tenant_id`,`status`,`created_at`);