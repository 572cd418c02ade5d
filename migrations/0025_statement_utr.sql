ALTER TABLE `cis_statements` ADD `email_outbox_id` text;
--> statement-breakpoint
ALTER TABLE `cis_statement_documents` ADD `utr_enc` text;--> statement-breakpoint
-- Every approved or paid invoice that deducted needs a statement: set the flag the approval now
-- sets itself, for invoices whose queued job never ran.
UPDATE `cis_invoices` SET `statement_required` = 1, `statement_requested_at` = coalesce(`statement_requested_at`, `approved_at`, `updated_at`)
WHERE `status` IN ('approved', 'paid') AND `cis_deduction_p` > 0 AND `deleted_at` IS NULL AND `statement_required` = 0;
--> statement-breakpoint
-- Statements not yet issued were frozen with the masked UTR: drop their documents and PDF keys so the
-- next rendering freezes them again with the full UTR. Issued statements keep what was issued.
DELETE FROM `cis_statement_documents` WHERE EXISTS (SELECT 1 FROM `cis_statements` s
  WHERE s.`tenant_id` = `cis_statement_documents`.`tenant_id` AND s.`id` = `cis_statement_documents`.`statement_id` AND s.`status` = 'generated');
--> statement-breakpoint
UPDATE `cis_statements` SET `pdf_key` = NULL WHERE `status` = 'generated';
