import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

// 'Start a project' requests from the public site. They belong to the platform, not to a
// tenant: whoever sends one has no workspace yet.
export const projectRequests = sqliteTable(
  "project_requests",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    company: text("company"),
    message: text("message"),
    // SHA-256 of the London day and the normalised fields: the same request sent twice in a day
    // (a retry after 'Could not send') is stored and e-mailed once.
    fingerprint: text("fingerprint").notNull(),
    // The e-mail to the sales address that reported it.
    outboxId: text("outbox_id").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [uniqueIndex("project_requests_fingerprint").on(t.fingerprint), index("project_requests_created").on(t.createdAt)],
);
