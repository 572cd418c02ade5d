CREATE TABLE `calendar_members` (
	`tenant_id` text NOT NULL,
	`calendar_id` text NOT NULL,
	`user_id` text NOT NULL,
	PRIMARY KEY(`calendar_id`, `user_id`)
);
--> statement-breakpoint
CREATE INDEX `calendar_members_tenant_user` ON `calendar_members` (`tenant_id`,`user_id`);--> statement-breakpoint
CREATE TABLE `calendars` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`name` text NOT NULL,
	`color` text DEFAULT '#3B82F6' NOT NULL,
	`type` text DEFAULT 'team' NOT NULL,
	`archived` integer DEFAULT false NOT NULL,
	`created_by` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `calendars_tenant_name` ON `calendars` (`tenant_id`,`name`);--> statement-breakpoint
CREATE TABLE `event_shares` (
	`tenant_id` text NOT NULL,
	`event_id` text NOT NULL,
	`user_id` text NOT NULL,
	PRIMARY KEY(`event_id`, `user_id`)
);
--> statement-breakpoint
CREATE INDEX `event_shares_tenant_user` ON `event_shares` (`tenant_id`,`user_id`);--> statement-breakpoint
CREATE TABLE `event_teams` (
	`tenant_id` text NOT NULL,
	`event_id` text NOT NULL,
	`team_id` text NOT NULL,
	PRIMARY KEY(`event_id`, `team_id`)
);
--> statement-breakpoint
CREATE INDEX `event_teams_tenant_team` ON `event_teams` (`tenant_id`,`team_id`);--> statement-breakpoint
CREATE TABLE `events` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`title` text NOT NULL,
	`start_utc` integer NOT NULL,
	`end_utc` integer NOT NULL,
	`type` text DEFAULT 'shift' NOT NULL,
	`status` text DEFAULT 'green' NOT NULL,
	`visibility` text DEFAULT 'private' NOT NULL,
	`calendar_id` text,
	`site_id` text,
	`shared_all` integer DEFAULT false NOT NULL,
	`rrule` text,
	`repeat_until` integer,
	`exdates` text,
	`created_by` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `events_tenant_start` ON `events` (`tenant_id`,`start_utc`);--> statement-breakpoint
CREATE INDEX `events_tenant_creator_start` ON `events` (`tenant_id`,`created_by`,`start_utc`);--> statement-breakpoint
CREATE INDEX `events_tenant_calendar_start` ON `events` (`tenant_id`,`calendar_id`,`start_utc`);--> statement-breakpoint
CREATE INDEX `events_tenant_repeating` ON `events` (`tenant_id`,`repeat_until`);--> statement-breakpoint
CREATE TABLE `schedule_prefs` (
	`tenant_id` text NOT NULL,
	`user_id` text NOT NULL,
	`last_view` text DEFAULT 'month' NOT NULL,
	`feed_token_hash` text,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`tenant_id`, `user_id`)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `schedule_prefs_feed_token` ON `schedule_prefs` (`feed_token_hash`);--> statement-breakpoint
CREATE TABLE `site_members` (
	`tenant_id` text NOT NULL,
	`site_id` text NOT NULL,
	`user_id` text NOT NULL,
	PRIMARY KEY(`site_id`, `user_id`)
);
--> statement-breakpoint
CREATE INDEX `site_members_tenant_user` ON `site_members` (`tenant_id`,`user_id`);--> statement-breakpoint
CREATE TABLE `sites` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`name` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sites_tenant_name` ON `sites` (`tenant_id`,`name`);--> statement-breakpoint
CREATE TABLE `team_members` (
	`tenant_id` text NOT NULL,
	`team_id` text NOT NULL,
	`user_id` text NOT NULL,
	PRIMARY KEY(`team_id`, `user_id`)
);
--> statement-breakpoint
CREATE INDEX `team_members_tenant_user` ON `team_members` (`tenant_id`,`user_id`);--> statement-breakpoint
CREATE TABLE `teams` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`name` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `teams_tenant_name` ON `teams` (`tenant_id`,`name`);--> statement-breakpoint
-- The calendar's new scopes reach the stored bundles as the defaults give them: leads plan for
-- their teams; managers and administrators also see and run every calendar. Only bundles that
-- hold 'schedule.edit' (the bundles the defaults wrote) gain them.
UPDATE role_bundles
SET scopes = (
  SELECT json_group_array(value) FROM (
    SELECT value FROM json_each(role_bundles.scopes)
    UNION ALL
    SELECT value FROM json_each(CASE role_bundles.name
      WHEN 'lead' THEN '["schedule.edit_team"]'
      ELSE '["schedule.edit_team","schedule.calendars.view_all","schedule.calendars.manage"]' END)
    WHERE value NOT IN (SELECT value FROM json_each(role_bundles.scopes))
  )
),
updated_at = updated_at + 1
WHERE name IN ('lead', 'manager', 'admin')
  AND EXISTS (SELECT 1 FROM json_each(role_bundles.scopes) WHERE value = 'schedule.edit');
