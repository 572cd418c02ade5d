ALTER TABLE `users` ADD `invite_id` text;--> statement-breakpoint
ALTER TABLE `users` ADD `scrubbed_at` integer;