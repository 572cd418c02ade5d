CREATE TABLE `cis_portal_invites` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`subcontractor_id` text NOT NULL,
	`email` text NOT NULL,
	`email_queued` integer DEFAULT false NOT NULL,
	`created_by` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer
);
--> statement-breakpoint
CREATE INDEX `cis_portal_invites_tenant_sub` ON `cis_portal_invites` (`tenant_id`,`subcontractor_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `cis_settings` (
	`tenant_id` text PRIMARY KEY NOT NULL,
	`active` integer DEFAULT false NOT NULL,
	`company_name` text DEFAULT '' NOT NULL,
	`employer_ref` text DEFAULT '' NOT NULL,
	`accounts_office_ref` text DEFAULT '' NOT NULL,
	`utr_enc` text,
	`utr_masked` text,
	`vat_scheme` text DEFAULT 'standard' NOT NULL,
	`email_statements` integer DEFAULT true NOT NULL,
	`warning_days` integer DEFAULT 3 NOT NULL,
	`statement_deadline_days` integer DEFAULT 14 NOT NULL,
	`email_from` text,
	`email_reply_to` text,
	`statement_footer` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`updated_by` text,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `cis_subcontractors` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`type` text NOT NULL,
	`name` text NOT NULL,
	`name_lower` text NOT NULL,
	`utr_enc` text,
	`utr_masked` text,
	`utr_hash` text,
	`nino_enc` text,
	`nino_masked` text,
	`company_number` text,
	`vat_number` text,
	`vat_checked_at` integer,
	`email` text,
	`phone` text,
	`verification_status` text DEFAULT 'standard' NOT NULL,
	`verification_rate` integer DEFAULT 20 NOT NULL,
	`verification_method` text,
	`verification_reference` text,
	`verification_notes` text,
	`verified_date` text,
	`verified_by` text,
	`active` integer DEFAULT true NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`created_by` text,
	`updated_by` text,
	`deleted_at` integer,
	`deleted_by` text,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `cis_subcontractors_tenant_list` ON `cis_subcontractors` (`tenant_id`,`deleted_at`,`active`,`name_lower`);--> statement-breakpoint
CREATE INDEX `cis_subcontractors_tenant_utr_hash` ON `cis_subcontractors` (`tenant_id`,`utr_hash`);--> statement-breakpoint
CREATE INDEX `cis_subcontractors_tenant_type` ON `cis_subcontractors` (`tenant_id`,`type`);