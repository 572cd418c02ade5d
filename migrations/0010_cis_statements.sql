CREATE TABLE `cis_statements` (
	`tenant_id` text NOT NULL,
	`id` text PRIMARY KEY NOT NULL,
	`subcontractor_id` text NOT NULL,
	`subcontractor_name` text NOT NULL,
	`utr_masked` text,
	`tax_month` text NOT NULL,
	`invoice_ids` text NOT NULL,
	`invoice_count` integer NOT NULL,
	`gross_p` integer NOT NULL,
	`materials_p` integer NOT NULL,
	`labour_p` integer NOT NULL,
	`cis_deduction_p` integer NOT NULL,
	`status` text DEFAULT 'generated' NOT NULL,
	`generated_at` integer NOT NULL,
	`generated_by` text,
	`issued_at` integer,
	`issued_method` text,
	`pdf_key` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `cis_statements_tenant_sub_month_unique` ON `cis_statements` (`tenant_id`,`subcontractor_id`,`tax_month`);--> statement-breakpoint
CREATE INDEX `cis_statements_tenant_month` ON `cis_statements` (`tenant_id`,`tax_month`,`subcontractor_name`);--> statement-breakpoint
ALTER TABLE `cis_invoices` ADD `statement_id` text;--> statement-breakpoint
CREATE INDEX `cis_invoices_tenant_statement_id` ON `cis_invoices` (`tenant_id`,`statement_id`);