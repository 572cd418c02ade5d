CREATE TABLE `cis_invoice_counts` (
	`tenant_id` text NOT NULL,
	`status` text NOT NULL,
	`tax_month` text NOT NULL,
	`n` integer DEFAULT 0 NOT NULL,
	`cis_deduction_p` integer DEFAULT 0 NOT NULL,
	`pending_statements` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`tenant_id`, `status`, `tax_month`)
);
--> statement-breakpoint
CREATE TABLE `cis_subcontractor_counts` (
	`tenant_id` text NOT NULL,
	`active` integer NOT NULL,
	`type` text NOT NULL,
	`verification_status` text NOT NULL,
	`n` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`tenant_id`, `active`, `type`, `verification_status`)
);
--> statement-breakpoint
-- The counts start from the invoices and subcontractors already there.
INSERT INTO `cis_invoice_counts` (`tenant_id`, `status`, `tax_month`, `n`, `cis_deduction_p`, `pending_statements`)
SELECT `tenant_id`, `status`, `tax_month`, count(*), sum(`cis_deduction_p`),
  sum(`status` = 'paid' AND `cis_deduction_p` > 0 AND `statement_required` = 1 AND `statement_issued_at` IS NULL AND `statement_id` IS NULL)
FROM `cis_invoices` WHERE `deleted_at` IS NULL GROUP BY `tenant_id`, `status`, `tax_month`;
--> statement-breakpoint
INSERT INTO `cis_subcontractor_counts` (`tenant_id`, `active`, `type`, `verification_status`, `n`)
SELECT `tenant_id`, `active`, `type`, `verification_status`, count(*)
FROM `cis_subcontractors` WHERE `deleted_at` IS NULL GROUP BY `tenant_id`, `active`, `type`, `verification_status`;
--> statement-breakpoint
-- Every write of an invoice moves its count in the same statement: a live invoice added, a live
-- invoice taken away, or both when an update changes what it is counted under.
CREATE TRIGGER `cis_invoice_counts_insert` AFTER INSERT ON `cis_invoices` WHEN NEW.`deleted_at` IS NULL BEGIN
  INSERT INTO `cis_invoice_counts` (`tenant_id`, `status`, `tax_month`, `n`, `cis_deduction_p`, `pending_statements`)
  VALUES (NEW.`tenant_id`, NEW.`status`, NEW.`tax_month`, 1, NEW.`cis_deduction_p`,
    NEW.`status` = 'paid' AND NEW.`cis_deduction_p` > 0 AND NEW.`statement_required` = 1 AND NEW.`statement_issued_at` IS NULL AND NEW.`statement_id` IS NULL)
  ON CONFLICT (`tenant_id`, `status`, `tax_month`) DO UPDATE SET `n` = `n` + 1, `cis_deduction_p` = `cis_deduction_p` + excluded.`cis_deduction_p`,
    `pending_statements` = `pending_statements` + excluded.`pending_statements`;
END;
--> statement-breakpoint
CREATE TRIGGER `cis_invoice_counts_delete` AFTER DELETE ON `cis_invoices` WHEN OLD.`deleted_at` IS NULL BEGIN
  UPDATE `cis_invoice_counts` SET `n` = `n` - 1, `cis_deduction_p` = `cis_deduction_p` - OLD.`cis_deduction_p`,
    `pending_statements` = `pending_statements` - (OLD.`status` = 'paid' AND OLD.`cis_deduction_p` > 0 AND OLD.`statement_required` = 1 AND OLD.`statement_issued_at` IS NULL AND OLD.`statement_id` IS NULL)
  WHERE `tenant_id` = OLD.`tenant_id` AND `status` = OLD.`status` AND `tax_month` = OLD.`tax_month`;
END;
--> statement-breakpoint
CREATE TRIGGER `cis_invoice_counts_update` AFTER UPDATE OF `tenant_id`, `status`, `tax_month`, `cis_deduction_p`, `statement_required`, `statement_issued_at`, `statement_id`, `deleted_at` ON `cis_invoices` BEGIN
  UPDATE `cis_invoice_counts` SET `n` = `n` - 1, `cis_deduction_p` = `cis_deduction_p` - OLD.`cis_deduction_p`,
    `pending_statements` = `pending_statements` - (OLD.`status` = 'paid' AND OLD.`cis_deduction_p` > 0 AND OLD.`statement_required` = 1 AND OLD.`statement_issued_at` IS NULL AND OLD.`statement_id` IS NULL)
  WHERE OLD.`deleted_at` IS NULL AND `tenant_id` = OLD.`tenant_id` AND `status` = OLD.`status` AND `tax_month` = OLD.`tax_month`;
  INSERT INTO `cis_invoice_counts` (`tenant_id`, `status`, `tax_month`, `n`, `cis_deduction_p`, `pending_statements`)
  SELECT NEW.`tenant_id`, NEW.`status`, NEW.`tax_month`, 1, NEW.`cis_deduction_p`,
    NEW.`status` = 'paid' AND NEW.`cis_deduction_p` > 0 AND NEW.`statement_required` = 1 AND NEW.`statement_issued_at` IS NULL AND NEW.`statement_id` IS NULL
  WHERE NEW.`deleted_at` IS NULL
  ON CONFLICT (`tenant_id`, `status`, `tax_month`) DO UPDATE SET `n` = `n` + 1, `cis_deduction_p` = `cis_deduction_p` + excluded.`cis_deduction_p`,
    `pending_statements` = `pending_statements` + excluded.`pending_statements`;
END;
--> statement-breakpoint
CREATE TRIGGER `cis_subcontractor_counts_insert` AFTER INSERT ON `cis_subcontractors` WHEN NEW.`deleted_at` IS NULL BEGIN
  INSERT INTO `cis_subcontractor_counts` (`tenant_id`, `active`, `type`, `verification_status`, `n`)
  VALUES (NEW.`tenant_id`, NEW.`active`, NEW.`type`, NEW.`verification_status`, 1)
  ON CONFLICT (`tenant_id`, `active`, `type`, `verification_status`) DO UPDATE SET `n` = `n` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `cis_subcontractor_counts_delete` AFTER DELETE ON `cis_subcontractors` WHEN OLD.`deleted_at` IS NULL BEGIN
  UPDATE `cis_subcontractor_counts` SET `n` = `n` - 1
  WHERE `tenant_id` = OLD.`tenant_id` AND `active` = OLD.`active` AND `type` = OLD.`type` AND `verification_status` = OLD.`verification_status`;
END;
--> statement-breakpoint
CREATE TRIGGER `cis_subcontractor_counts_update` AFTER UPDATE OF `tenant_id`, `active`, `type`, `verification_status`, `deleted_at` ON `cis_subcontractors` BEGIN
  UPDATE `cis_subcontractor_counts` SET `n` = `n` - 1
  WHERE OLD.`deleted_at` IS NULL AND `tenant_id` = OLD.`tenant_id` AND `active` = OLD.`active` AND `type` = OLD.`type`
    AND `verification_status` = OLD.`verification_status`;
  INSERT INTO `cis_subcontractor_counts` (`tenant_id`, `active`, `type`, `verification_status`, `n`)
  SELECT NEW.`tenant_id`, NEW.`active`, NEW.`type`, NEW.`verification_status`, 1
  WHERE NEW.`deleted_at` IS NULL
  ON CONFLICT (`tenant_id`, `active`, `type`, `verification_status`) DO UPDATE SET `n` = `n` + 1;
END;
