ALTER TABLE `cis_invoices` ADD `outside_cis` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `cis_subcontractors` ADD `public_body` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `cis_subcontractors` ADD `utr_invalid` integer;