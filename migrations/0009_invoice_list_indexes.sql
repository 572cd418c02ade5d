DROP INDEX `cis_invoices_tenant_date`;--> statement-breakpoint
DROP INDEX `cis_invoices_tenant_status_date`;--> statement-breakpoint
DROP INDEX `cis_invoices_tenant_tax_month`;--> statement-breakpoint
CREATE INDEX `cis_invoices_tenant_statements` ON `cis_invoices` (`tenant_id`,`statement_required`,`statement_issued_at`,`deleted_at`,`status`);--> statement-breakpoint
CREATE INDEX `cis_invoices_tenant_date` ON `cis_invoices` (`tenant_id`,`deleted_at`,`invoice_date`,`id`,`status`,`tax_month`,`subcontractor_name_lower`,`invoice_number`);--> statement-breakpoint
CREATE INDEX `cis_invoices_tenant_status_date` ON `cis_invoices` (`tenant_id`,`deleted_at`,`status`,`invoice_date`,`id`,`tax_month`,`subcontractor_name_lower`,`invoice_number`);--> statement-breakpoint
CREATE INDEX `cis_invoices_tenant_tax_month` ON `cis_invoices` (`tenant_id`,`tax_month`,`deleted_at`,`status`,`invoice_date`,`id`,`cis_deduction_p`);