CREATE TABLE `cis_no_payment_notices` (
	`tenant_id` text NOT NULL,
	`id` text NOT NULL,
	`source` text NOT NULL,
	`given_on` text NOT NULL,
	`first_month` text NOT NULL,
	`months` integer NOT NULL,
	`return_id` text,
	`created_at` integer NOT NULL,
	`created_by` text,
	PRIMARY KEY(`tenant_id`, `id`),
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `cis_no_payment_notices_return` ON `cis_no_payment_notices` (`tenant_id`,`return_id`) WHERE "cis_no_payment_notices"."return_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `cis_no_payment_notices_tenant_month` ON `cis_no_payment_notices` (`tenant_id`,`first_month`);