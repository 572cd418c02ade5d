-- Full-text search over notes: title, plain text and tags, kept in step with `notes` by triggers
-- (so every write that changes a note changes its index entry in the same statement). The index
-- holds its own copy keyed by note id and tenant; lists join back to `notes` for who may see it.
CREATE VIRTUAL TABLE `notes_fts` USING fts5(`note_id` UNINDEXED, `tenant_id` UNINDEXED, `title`, `body`, `tags`, tokenize = 'unicode61 remove_diacritics 2');
--> statement-breakpoint
CREATE TRIGGER `notes_fts_insert` AFTER INSERT ON `notes` BEGIN
  INSERT INTO `notes_fts` (`note_id`, `tenant_id`, `title`, `body`, `tags`) VALUES (new.`id`, new.`tenant_id`, new.`title`, new.`text`, new.`tags`);
END;
--> statement-breakpoint
CREATE TRIGGER `notes_fts_delete` AFTER DELETE ON `notes` BEGIN
  DELETE FROM `notes_fts` WHERE `note_id` = old.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `notes_fts_update` AFTER UPDATE OF `title`, `text`, `tags` ON `notes` BEGIN
  DELETE FROM `notes_fts` WHERE `note_id` = old.`id`;
  INSERT INTO `notes_fts` (`note_id`, `tenant_id`, `title`, `body`, `tags`) VALUES (new.`id`, new.`tenant_id`, new.`title`, new.`text`, new.`tags`);
END;
