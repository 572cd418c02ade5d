ALTER TABLE `signature_requests` ADD `signer_kind` text DEFAULT 'user' NOT NULL;--> statement-breakpoint
ALTER TABLE `signature_requests` ADD `signer_name` text;--> statement-breakpoint
ALTER TABLE `signature_requests` ADD `signer_email` text;