ALTER TABLE `sessions` ADD `portal_link_revealed_by` text;--> statement-breakpoint
ALTER TABLE `cis_invoices` ADD `portal_link_revealed_by` text;--> statement-breakpoint
ALTER TABLE `cis_portal_invites` ADD `revealed_by` text;--> statement-breakpoint
ALTER TABLE `cis_portal_invites` ADD `revealed_at` integer;