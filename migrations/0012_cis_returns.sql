CREATE TABLE `cis_return_lines` (
	`tenant_id` text NOT NULL,
	`return_id` text NOT NULL,
	`position` integer NOT NULL,
	`subcontractor_id` text NOT NULL,
	`name` text NOT NULL,
	`utr_masked` text,
	`nino_masked` text,
	`gross_p` integer NOT NULL,
	`materials_p` integer NOT NULL,
	`cis_deducted_p` integer NOT NULL,
	`cis_rate` integer NOT NULL,
	`invoice_count` integer NOT NULL,
	`verification_ref` text,
	`statements_issued` integer NOT NULL,
	`last_statement_date` integer,
	PRIMARY KEY(`tenant_id`, `return_id`, `subcontractor_id`),
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `cis_return_lines_position` ON `cis_return_lines` (`tenant_id`,`return_id`,`position`);--> statement-breakpoint
CREATE TABLE `cis_returns` (
	`tenant_id` text NOT NULL,
	`id` text NOT NULL,
	`tax_month` text NOT NULL,
	`amendment_of` text,
	`status` text NOT NULL,
	`subcontractor_count` integer DEFAULT 0 NOT NULL,
	`invoice_count` integer DEFAULT 0 NOT NULL,
	`gross_p` integer DEFAULT 0 NOT NULL,
	`materials_p` integer DEFAULT 0 NOT NULL,
	`cis_deducted_p` integer DEFAULT 0 NOT NULL,
	`filing_deadline` integer NOT NULL,
	`payment_deadline` integer NOT NULL,
	`statements_deadline` integer NOT NULL,
	`issues` text DEFAULT '[]' NOT NULL,
	`locked` integer DEFAULT false NOT NULL,
	`locked_at` integer,
	`compiled_by` text,
	`compiled_at` integer,
	`compile_id` text,
	`submitted_at` integer,
	`submitted_by` text,
	`submission_ref` text,
	`irmark` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`updated_by` text,
	PRIMARY KEY(`tenant_id`, `id`),
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `cis_returns_original_unique` ON `cis_returns` (`tenant_id`,`tax_month`) WHERE "cis_returns"."amendment_of" IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `cis_returns_open_amendment_unique` ON `cis_returns` (`tenant_id`,`tax_month`) WHERE "cis_returns"."amendment_of" IS NOT NULL AND "cis_returns"."locked" = 0;--> statement-breakpoint
CREATE INDEX `cis_returns_tenant_recent` ON `cis_returns` (`tenant_id`,`tax_month`,`created_at`);