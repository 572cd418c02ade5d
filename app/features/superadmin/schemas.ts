import { z } from "zod";
import { STORAGE_TIERS } from "~/features/files";
import { isValidSlug } from "~/features/platform";
import { MODULE_CATALOGUE, type ModuleId } from "~/features/platform";

const MODULE_IDS = MODULE_CATALOGUE.map((m) => m.id) as [ModuleId, ...ModuleId[]];

/** The largest custom storage limit the console accepts, in GiB (100 TiB). */
export const MAX_CUSTOM_LIMIT_GIB = 102_400;

export const createTenantSchema = z
  .object({
    slug: z
      .string({ error: "Slug is required" })
      .trim()
      .toLowerCase()
      .min(2, "Slug must be 2 to 63 characters")
      .max(63, "Slug must be 2 to 63 characters")
      .refine(isValidSlug, "Use lower-case letters, digits and hyphens; start and end with a letter or digit"),
    name: z.string({ error: "Name is required" }).trim().min(2, "Name must be at least 2 characters").max(100, "Name must be at most 100 characters"),
    // Ticked boxes: the modules this tenant may switch on. None ticked is a tenant with no modules.
    availableModules: z.array(z.enum(MODULE_IDS, { error: "Choose modules from the list" })).default([]),
    storageTier: z.enum(STORAGE_TIERS, { error: "Choose a storage tier" }).default("free"),
    customLimitGib: z.coerce
      .number({ error: "Enter the limit in whole GiB" })
      .int("Enter the limit in whole GiB")
      .min(1, "The limit must be at least 1 GiB")
      .max(MAX_CUSTOM_LIMIT_GIB, `The limit must be at most ${MAX_CUSTOM_LIMIT_GIB.toLocaleString("en-GB")} GiB`)
      .optional(),
    adminEmail: z.string({ error: "The first admin's email is required" }).trim().toLowerCase().email("Enter a valid email address").max(254),
  })
  .superRefine((v, ctx) => {
    if (v.storageTier === "custom" && v.customLimitGib === undefined)
      ctx.addIssue({ code: "custom", path: ["customLimitGib"], message: "Enter the custom limit in GiB" });
    if (v.storageTier !== "custom" && v.customLimitGib !== undefined)
      ctx.addIssue({ code: "custom", path: ["customLimitGib"], message: "A custom limit needs the custom tier" });
  });
export type CreateTenantInput = z.infer<typeof createTenantSchema>;

/** Switching one module of one tenant on or off; `enabled` must say which, nothing else counts. */
export const toggleModuleSchema = z.object({
  tenantId: z.string().trim().min(1).max(100),
  moduleId: z.string().trim().min(1).max(100),
  enabled: z.enum(["true", "false"]).transform((v) => v === "true"),
});

/** Suspend or reinstate: without `confirmed=yes` the server answers with its confirmation step. */
export const tenantStatusSchema = z.object({
  tenantId: z.string().trim().min(1).max(100),
  confirmed: z.literal("yes").optional().catch(undefined),
});

export const SUPERADMIN_INTENTS = ["create-tenant", "toggle-module", "suspend", "reinstate"] as const;
export type SuperadminIntent = (typeof SUPERADMIN_INTENTS)[number];

/** Just the intent: read first, so the action can check the intent's scope before anything else. */
export const superadminIntentSchema = z.object({ intent: z.enum(SUPERADMIN_INTENTS) });

/** Every form of the /superadmin console, told apart by its intent. */
export const superadminActionSchema = z.discriminatedUnion("intent", [
  createTenantSchema.safeExtend({ intent: z.literal("create-tenant") }),
  toggleModuleSchema.extend({ intent: z.literal("toggle-module") }),
  tenantStatusSchema.extend({ intent: z.literal("suspend") }),
  tenantStatusSchema.extend({ intent: z.literal("reinstate") }),
]);

export const AUDIT_PAGE_SIZE = 50;

/** The platform audit log's filters, from the query string; anything malformed is no filter. */
export const auditFilterSchema = z.object({
  tenant: z.string().trim().max(100).optional().catch(undefined),
  action: z
    .string()
    .trim()
    .max(100)
    .regex(/^[a-z0-9._-]*$/i)
    .optional()
    .catch(undefined),
  page: z.coerce.number().int().min(1).max(10_000).catch(1).default(1),
});
export type AuditFilter = z.infer<typeof auditFilterSchema>;
