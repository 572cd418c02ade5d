CREATE TABLE `cis_paid_month_counts` (
	`tenant_id` text NOT NULL,
	`tax_month` text NOT NULL,
	`n` integer DEFAULT 0 NOT NULL,
	`cis_deduction_p` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`tenant_id`, `tax_month`)
);
--> statement-breakpoint
-- An invoice's payment tax month: the month of its payment date (a London calendar date,
-- 'YYYY-MM-DD'), which runs from the 6th to the 5th, so the 1st to the 5th belong to the month before.
-- A date that is not a real calendar date has none; the label alone counts it then.
-- The counts start from the paid invoices already there.
INSERT INTO `cis_paid_month_counts` (`tenant_id`, `tax_month`, `n`, `cis_deduction_p`)
SELECT `tenant_id`, `m`, count(*), sum(`cis_deduction_p`) FROM (
  SELECT `tenant_id`, `tax_month` AS `m`, `cis_deduction_p` FROM `cis_invoices` WHERE `deleted_at` IS NULL AND `status` = 'paid' AND `subcontractor_id` <> '' AND `outside_cis` = 0
  UNION ALL
  SELECT `tenant_id`, `pm` AS `m`, `cis_deduction_p` FROM (
    SELECT `tenant_id`, `tax_month`, `cis_deduction_p`, CASE WHEN `payment_date` GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]' AND date(`payment_date`) = `payment_date` THEN CASE WHEN substr(`payment_date`, 9) >= '06' THEN substr(`payment_date`, 1, 7) ELSE strftime('%Y-%m', `payment_date`, '-1 month') END END AS `pm`
    FROM `cis_invoices` WHERE `deleted_at` IS NULL AND `status` = 'paid' AND `subcontractor_id` <> '' AND `outside_cis` = 0
  ) WHERE `pm` IS NOT NULL AND `pm` <> `tax_month`
) GROUP BY `tenant_id`, `m`;
--> statement-breakpoint
-- Every write of an invoice moves its counts in the same statement: a counted invoice adds one to
-- its labelled month and to its payment month (once when they are the same), and takes it away again.
CREATE TRIGGER `cis_paid_month_counts_insert` AFTER INSERT ON `cis_invoices` WHEN NEW.`deleted_at` IS NULL AND NEW.`status` = 'paid' AND NEW.`subcontractor_id` <> '' AND NEW.`outside_cis` = 0 BEGIN
  INSERT INTO `cis_paid_month_counts` (`tenant_id`, `tax_month`, `n`, `cis_deduction_p`)
  SELECT NEW.`tenant_id`, `m`, 1, NEW.`cis_deduction_p`
  FROM (SELECT NEW.`tax_month` AS `m` UNION SELECT CASE WHEN NEW.`payment_date` GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]' AND date(NEW.`payment_date`) = NEW.`payment_date` THEN CASE WHEN substr(NEW.`payment_date`, 9) >= '06' THEN substr(NEW.`payment_date`, 1, 7) ELSE strftime('%Y-%m', NEW.`payment_date`, '-1 month') END END)
  WHERE `m` IS NOT NULL
  ON CONFLICT (`tenant_id`, `tax_month`) DO UPDATE SET `n` = `n` + 1, `cis_deduction_p` = `cis_deduction_p` + excluded.`cis_deduction_p`;
END;
--> statement-breakpoint
CREATE TRIGGER `cis_paid_month_counts_delete` AFTER DELETE ON `cis_invoices` WHEN OLD.`deleted_at` IS NULL AND OLD.`status` = 'paid' AND OLD.`subcontractor_id` <> '' AND OLD.`outside_cis` = 0 BEGIN
  UPDATE `cis_paid_month_counts` SET `n` = `n` - 1, `cis_deduction_p` = `cis_deduction_p` - OLD.`cis_deduction_p`
  WHERE `tenant_id` = OLD.`tenant_id` AND `tax_month` IN (OLD.`tax_month`, CASE WHEN OLD.`payment_date` GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]' AND date(OLD.`payment_date`) = OLD.`payment_date` THEN CASE WHEN substr(OLD.`payment_date`, 9) >= '06' THEN substr(OLD.`payment_date`, 1, 7) ELSE strftime('%Y-%m', OLD.`payment_date`, '-1 month') END END);
END;
--> statement-breakpoint
CREATE TRIGGER `cis_paid_month_counts_update` AFTER UPDATE OF `tenant_id`, `status`, `tax_month`, `payment_date`, `cis_deduction_p`, `outside_cis`, `subcontractor_id`, `deleted_at` ON `cis_invoices` BEGIN
  UPDATE `cis_paid_month_counts` SET `n` = `n` - 1, `cis_deduction_p` = `cis_deduction_p` - OLD.`cis_deduction_p`
  WHERE (OLD.`deleted_at` IS NULL AND OLD.`status` = 'paid' AND OLD.`subcontractor_id` <> '' AND OLD.`outside_cis` = 0) AND `tenant_id` = OLD.`tenant_id` AND `tax_month` IN (OLD.`tax_month`, CASE WHEN OLD.`payment_date` GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]' AND date(OLD.`payment_date`) = OLD.`payment_date` THEN CASE WHEN substr(OLD.`payment_date`, 9) >= '06' THEN substr(OLD.`payment_date`, 1, 7) ELSE strftime('%Y-%m', OLD.`payment_date`, '-1 month') END END);
  INSERT INTO `cis_paid_month_counts` (`tenant_id`, `tax_month`, `n`, `cis_deduction_p`)
  SELECT NEW.`tenant_id`, `m`, 1, NEW.`cis_deduction_p`
  FROM (SELECT NEW.`tax_month` AS `m` UNION SELECT CASE WHEN NEW.`payment_date` GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]' AND date(NEW.`payment_date`) = NEW.`payment_date` THEN CASE WHEN substr(NEW.`payment_date`, 9) >= '06' THEN substr(NEW.`payment_date`, 1, 7) ELSE strftime('%Y-%m', NEW.`payment_date`, '-1 month') END END)
  WHERE `m` IS NOT NULL AND (NEW.`deleted_at` IS NULL AND NEW.`status` = 'paid' AND NEW.`subcontractor_id` <> '' AND NEW.`outside_cis` = 0)
  ON CONFLICT (`tenant_id`, `tax_month`) DO UPDATE SET `n` = `n` + 1, `cis_deduction_p` = `cis_deduction_p` + excluded.`cis_deduction_p`;
END;
