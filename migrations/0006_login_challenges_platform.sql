-- Hand-edited after drizzle-kit: the INSERT ... SELECT leaves out `kind`, which the old table lacks (new rows take the default).
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_login_challenges` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text DEFAULT 'staff' NOT NULL,
	`tenant_id` text,
	`user_id` text NOT NULL,
	`code_hash` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`redirect_to` text,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`consumed_at` integer
);
--> statement-breakpoint
INSERT INTO `__new_login_challenges`("id", "tenant_id", "user_id", "code_hash", "attempts", "redirect_to", "created_at", "expires_at", "consumed_at") SELECT "id", "tenant_id", "user_id", "code_hash", "attempts", "redirect_to", "created_at", "expires_at", "consumed_at" FROM `login_challenges`;--> statement-breakpoint
DROP TABLE `login_challenges`;--> statement-breakpoint
ALTER TABLE `__new_login_challenges` RENAME TO `login_challenges`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `login_challenges_tenant_user` ON `login_challenges` (`tenant_id`,`user_id`);--> statement-breakpoint
CREATE INDEX `login_challenges_expiry` ON `login_challenges` (`expires_at`);