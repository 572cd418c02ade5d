ALTER TABLE `cis_invoices` ADD `outside_cis` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `cis_subcontractors` ADD `public_body` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `cis_subcontractors` ADD `utr_invalid` integer;--> statement-breakpoint
CREATE INDEX `cis_subcontractors_utr_unchecked` ON `cis_subcontractors` (`tenant_id`,`id`) WHERE "cis_subcontractors"."utr_invalid" IS NULL AND "cis_subcontractors"."utr_enc" IS NOT NULL;