/**
 * The contractor's Government Gateway user (sender id and password) for HMRC submissions.
 * Encrypted at rest with the identifier keys (AES-GCM bound to tenant, row and field), never
 * sent back to a browser: the settings page only learns whether they are set.
 */
import { and, isNotNull } from "drizzle-orm";
import { dbFor, type Db } from "~/db/client.server";
import { forTenant } from "~/db/tenancy";
import { cisSettings } from "~/db/schema";
import type { ActorAt } from "~/features/auth";
import { auditInsert } from "~/features/platform/index.server";
import { decryptPii, encryptPii, type PiiContext } from "../pii.server";
import type { GatewayCredentials } from "./protocol";
import type { Result } from "~/utils/result";

export function gatewayPiiContext(tenantId: string, field: "gateway_sender_id" | "gateway_password"): PiiContext {
  return { tenantId, table: "cis_settings", recordId: tenantId, field };
}

export type CredentialsResult = Result<void, "settings_missing" | "encrypt_failed">;

/** The query alone, for a page that reads it in its own D1 batch. */
export function gatewayCredentialsStatusQuery(db: Db, tenantId: string) {
  return db
    .select({ updatedAt: cisSettings.gatewayCredentialsUpdatedAt })
    .from(cisSettings)
    .where(and(forTenant(cisSettings, tenantId), isNotNull(cisSettings.gatewaySenderIdEnc), isNotNull(cisSettings.gatewayPasswordEnc)))
    .limit(1);
}

export async function hasGatewayCredentials(env: Env, tenantId: string): Promise<boolean> {
  const [row] = await gatewayCredentialsStatusQuery(dbFor(env, tenantId), tenantId);
  return Boolean(row);
}

/** Replaces both values (they belong together). Needs the settings row: credentials come after the CIS settings. */
export async function saveGatewayCredentials(env: Env, tenantId: string, credentials: GatewayCredentials, actor: ActorAt): Promise<CredentialsResult> {
  let senderEnc: string;
  let passwordEnc: string;
  try {
    senderEnc = await encryptPii(env.PII_KEYS, credentials.senderId, gatewayPiiContext(tenantId, "gateway_sender_id"));
    passwordEnc = await encryptPii(env.PII_KEYS, credentials.password, gatewayPiiContext(tenantId, "gateway_password"));
  } catch (err) {
    console.error("Failed to encrypt Government Gateway credentials", err);
    return { ok: false, code: "encrypt_failed" };
  }
  const db = dbFor(env, tenantId);
  const [existing] = await db.select({ tenantId: cisSettings.tenantId }).from(cisSettings).where(forTenant(cisSettings, tenantId)).limit(1);
  if (!existing) return { ok: false, code: "settings_missing" };
  await writeGatewayCredentials(db, tenantId, actor, { senderEnc, passwordEnc });
  return { ok: true };
}

export async function clearGatewayCredentials(env: Env, tenantId: string, actor: ActorAt): Promise<void> {
  await writeGatewayCredentials(dbFor(env, tenantId), tenantId, actor, null);
}

/** Stores the sealed credentials (or clears them, `null`) with its audit entry, in one batch. */
async function writeGatewayCredentials(db: Db, tenantId: string, actor: ActorAt, sealed: { senderEnc: string; passwordEnc: string } | null): Promise<void> {
  const now = Date.now();
  await db.batch([
    db
      .update(cisSettings)
      .set({
        gatewaySenderIdEnc: sealed?.senderEnc ?? null,
        gatewayPasswordEnc: sealed?.passwordEnc ?? null,
        gatewayCredentialsUpdatedAt: now,
        updatedAt: now,
        updatedBy: actor.id,
      })
      .where(forTenant(cisSettings, tenantId)),
    auditInsert(
      db,
      {
        tenantId,
        action: "cis.settings.updated",
        actorId: actor.id,
        actorEmail: actor.email,
        targetType: "cis_settings",
        targetId: tenantId,
        ip: actor.ip,
        payload: sealed ? { changedFields: ["gatewayCredentials"] } : { changedFields: ["gatewayCredentials"], cleared: true },
      },
      now,
    ),
  ]);
}

export type ReadCredentialsResult = Result<{ credentials: GatewayCredentials }, "credentials_missing" | "credentials_unreadable">;

/** For the gateway only, at the moment a message is sent. */
export async function readGatewayCredentials(env: Env, tenantId: string): Promise<ReadCredentialsResult> {
  const [row] = await dbFor(env, tenantId)
    .select({ sender: cisSettings.gatewaySenderIdEnc, password: cisSettings.gatewayPasswordEnc })
    .from(cisSettings)
    .where(forTenant(cisSettings, tenantId))
    .limit(1);
  if (!row?.sender || !row.password) return { ok: false, code: "credentials_missing" };
  try {
    return {
      ok: true,
      credentials: {
        senderId: await decryptPii(env.PII_KEYS, row.sender, gatewayPiiContext(tenantId, "gateway_sender_id")),
        password: await decryptPii(env.PII_KEYS, row.password, gatewayPiiContext(tenantId, "gateway_password")),
      },
    };
  } catch (err) {
    console.error("Failed to decrypt Government Gateway credentials", err);
    return { ok: false, code: "credentials_unreadable" };
  }
}
