ALTER TABLE `cis_invoices` ADD `search_rowid` integer;--> statement-breakpoint
ALTER TABLE `cis_subcontractors` ADD `search_rowid` integer;--> statement-breakpoint
CREATE INDEX `cis_subcontractors_tenant_company_number` ON `cis_subcontractors` (`tenant_id`,`company_number`);--> statement-breakpoint
-- Substring search over the invoice list (invoice number, subcontractor name) and the subcontractor
-- list (name, e-mail): a trigram index answers `%term%` for terms of three characters or more by
-- reading only the matches, where a LIKE reads every row of the tenant. Each index keeps its own
-- copy keyed by the row's id and tenant, kept in step by the triggers below in the same statement
-- as every write. A row remembers its index entry's rowid (`search_rowid`), so changing or
-- deleting it removes exactly that entry without scanning the index.
CREATE VIRTUAL TABLE `cis_invoices_search` USING fts5(`invoice_id` UNINDEXED, `tenant_id` UNINDEXED, `invoice_number`, `subcontractor_name`, tokenize = 'trigram');
--> statement-breakpoint
CREATE VIRTUAL TABLE `cis_subcontractors_search` USING fts5(`subcontractor_id` UNINDEXED, `tenant_id` UNINDEXED, `name`, `email`, tokenize = 'trigram');
--> statement-breakpoint
-- The rows already there: each entry takes its row's current rowid (unique now); later entries get
-- the index's own next rowid, so they never collide with these.
INSERT INTO `cis_invoices_search` (`rowid`, `invoice_id`, `tenant_id`, `invoice_number`, `subcontractor_name`)
SELECT `rowid`, `id`, `tenant_id`, `invoice_number`, `subcontractor_name_lower` FROM `cis_invoices`;
--> statement-breakpoint
UPDATE `cis_invoices` SET `search_rowid` = `rowid`;
--> statement-breakpoint
INSERT INTO `cis_subcontractors_search` (`rowid`, `subcontractor_id`, `tenant_id`, `name`, `email`)
SELECT `rowid`, `id`, `tenant_id`, `name_lower`, lower(`email`) FROM `cis_subcontractors`;
--> statement-breakpoint
UPDATE `cis_subcontractors` SET `search_rowid` = `rowid`;
--> statement-breakpoint
-- Inside a trigger, last_insert_rowid() is the rowid of the trigger's own last insert: the new entry.
CREATE TRIGGER `cis_invoices_search_insert` AFTER INSERT ON `cis_invoices` BEGIN
  INSERT INTO `cis_invoices_search` (`invoice_id`, `tenant_id`, `invoice_number`, `subcontractor_name`) VALUES (NEW.`id`, NEW.`tenant_id`, NEW.`invoice_number`, NEW.`subcontractor_name_lower`);
  UPDATE `cis_invoices` SET `search_rowid` = last_insert_rowid() WHERE `rowid` = NEW.`rowid`;
END;
--> statement-breakpoint
CREATE TRIGGER `cis_invoices_search_delete` AFTER DELETE ON `cis_invoices` BEGIN
  DELETE FROM `cis_invoices_search` WHERE `rowid` = OLD.`search_rowid`;
END;
--> statement-breakpoint
CREATE TRIGGER `cis_invoices_search_update` AFTER UPDATE OF `id`, `tenant_id`, `invoice_number`, `subcontractor_name_lower` ON `cis_invoices` BEGIN
  DELETE FROM `cis_invoices_search` WHERE `rowid` = OLD.`search_rowid`;
  INSERT INTO `cis_invoices_search` (`invoice_id`, `tenant_id`, `invoice_number`, `subcontractor_name`) VALUES (NEW.`id`, NEW.`tenant_id`, NEW.`invoice_number`, NEW.`subcontractor_name_lower`);
  UPDATE `cis_invoices` SET `search_rowid` = last_insert_rowid() WHERE `rowid` = NEW.`rowid`;
END;
--> statement-breakpoint
CREATE TRIGGER `cis_subcontractors_search_insert` AFTER INSERT ON `cis_subcontractors` BEGIN
  INSERT INTO `cis_subcontractors_search` (`subcontractor_id`, `tenant_id`, `name`, `email`) VALUES (NEW.`id`, NEW.`tenant_id`, NEW.`name_lower`, lower(NEW.`email`));
  UPDATE `cis_subcontractors` SET `search_rowid` = last_insert_rowid() WHERE `rowid` = NEW.`rowid`;
END;
--> statement-breakpoint
CREATE TRIGGER `cis_subcontractors_search_delete` AFTER DELETE ON `cis_subcontractors` BEGIN
  DELETE FROM `cis_subcontractors_search` WHERE `rowid` = OLD.`search_rowid`;
END;
--> statement-breakpoint
CREATE TRIGGER `cis_subcontractors_search_update` AFTER UPDATE OF `id`, `tenant_id`, `name_lower`, `email` ON `cis_subcontractors` BEGIN
  DELETE FROM `cis_subcontractors_search` WHERE `rowid` = OLD.`search_rowid`;
  INSERT INTO `cis_subcontractors_search` (`subcontractor_id`, `tenant_id`, `name`, `email`) VALUES (NEW.`id`, NEW.`tenant_id`, NEW.`name_lower`, lower(NEW.`email`));
  UPDATE `cis_subcontractors` SET `search_rowid` = last_insert_rowid() WHERE `rowid` = NEW.`rowid`;
END;
