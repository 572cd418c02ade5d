-- Audit actions take one naming scheme: dotted lower case, area first. Only the name of each
-- stored entry changes (actor, target, payload and time stay as they were).
UPDATE `audit_events` SET `action` = 'files.file.uploaded' WHERE `action` = 'FILE_UPLOADED';--> statement-breakpoint
UPDATE `audit_events` SET `action` = 'files.file.deleted' WHERE `action` = 'FILE_DELETED';--> statement-breakpoint
UPDATE `audit_events` SET `action` = 'files.file.bulk_deleted' WHERE `action` = 'BULK_FILES_DELETED';--> statement-breakpoint
UPDATE `audit_events` SET `action` = 'files.file.shared' WHERE `action` = 'FILE_SHARED';--> statement-breakpoint
UPDATE `audit_events` SET `action` = 'files.file.downloaded' WHERE `action` = 'FILE_DOWNLOADED';--> statement-breakpoint
UPDATE `audit_events` SET `action` = 'files.file.moved' WHERE `action` = 'FILE_MOVED';--> statement-breakpoint
UPDATE `audit_events` SET `action` = 'files.file.bulk_moved' WHERE `action` = 'BULK_FILES_MOVED';--> statement-breakpoint
UPDATE `audit_events` SET `action` = 'files.folder.created' WHERE `action` = 'FOLDER_CREATED';--> statement-breakpoint
UPDATE `audit_events` SET `action` = 'files.folder.updated' WHERE `action` = 'FOLDER_UPDATED';--> statement-breakpoint
UPDATE `audit_events` SET `action` = 'files.folder.deleted' WHERE `action` = 'FOLDER_DELETED';--> statement-breakpoint
UPDATE `audit_events` SET `action` = 'files.storage.quota_exceeded' WHERE `action` = 'STORAGE_QUOTA_EXCEEDED';--> statement-breakpoint
UPDATE `audit_events` SET `action` = 'files.storage.usage_recalculated' WHERE `action` = 'STORAGE_USAGE_RECALCULATED';--> statement-breakpoint
UPDATE `audit_events` SET `action` = 'files.exported' WHERE `action` = 'FILES_EXPORTED';--> statement-breakpoint
UPDATE `audit_events` SET `action` = 'files.signature.requested' WHERE `action` = 'SIGNATURE_REQUESTED';--> statement-breakpoint
UPDATE `audit_events` SET `action` = 'files.signature.completed' WHERE `action` = 'SIGNATURE_COMPLETED';--> statement-breakpoint
UPDATE `audit_events` SET `action` = 'files.signature.declined' WHERE `action` = 'SIGNATURE_DECLINED';--> statement-breakpoint
UPDATE `audit_events` SET `action` = 'files.signature.stamped' WHERE `action` = 'SIGNATURE_STAMPED';--> statement-breakpoint
UPDATE `audit_events` SET `action` = 'user.disabled' WHERE `action` = 'users.disabled';--> statement-breakpoint
UPDATE `audit_events` SET `action` = 'user.enabled' WHERE `action` = 'users.enabled';--> statement-breakpoint
UPDATE `audit_events` SET `action` = 'user.password_changed' WHERE `action` = 'users.password_changed';
