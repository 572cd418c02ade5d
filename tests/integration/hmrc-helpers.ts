import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { hmrcSubmissions } from "~/db/schema";
import { buildCis300Message } from "~/features/cis/domain/xml/cis300";
import { newCorrelationId } from "~/features/cis/domain/xml/govtalk-envelope";
import { saveGatewayCredentials } from "~/features/cis/hmrc/credentials.server";
import { readDevHmrcMessages } from "~/features/cis/hmrc/fake-te.server";
import { handleJobsBatch } from "~/features/platform/jobs/consumer.server";
import type { JobMessage } from "~/features/platform/jobs/enqueue.server";
import type { TestTenant } from "../factories";
import { deliverMessages } from "./queue-helpers";

export const JOBS_QUEUE = "cis-workspace-jobs";
export const GATEWAY_PASSWORD = "gg-Secret-password-4821";
export const GATEWAY_SENDER = "CISUSER123";

/** A JOBS producer that records each message with its delay, so the test delivers them itself. */
export function jobsRecorder() {
  const sent: { body: JobMessage; delaySeconds?: number }[] = [];
  const queue = {
    async send(body: JobMessage, opts?: QueueSendOptions) {
      sent.push({ body: structuredClone(body), delaySeconds: opts?.delaySeconds });
    },
    async sendBatch() {
      throw new Error("not used");
    },
  };
  const e = { ...env, JOBS: queue as unknown as Queue } as Env;
  /** Messages of one job type, oldest first. */
  const of = (type: string) => sent.filter((m) => m.body.type === type);
  /** Delivers the message to the JOBS consumer with this env, as the runtime would (again, if asked). */
  const deliver = async (msg: { body: JobMessage }, attempts = 1) =>
    deliverMessages(JOBS_QUEUE, [{ body: msg.body, attempts }], (batch) => handleJobsBatch(batch, e));
  return { sent, env: e, of, deliver };
}

let refSeq = 0;
/** An employer reference no other test uses, so the fake's per-reference mode is this test's own. */
export function uniqueEmployerRef(): string {
  refSeq += 1;
  const n = (Date.now() + refSeq) % 100000;
  return `${String(100 + (refSeq % 900)).padStart(3, "0")}/T${String(n).padStart(5, "0")}${refSeq % 10}`;
}

/** One subcontractor's line on a return: £1,500 paid, £300 materials, £240 deducted. */
export const SAMPLE_RETURN_LINE = {
  name: { fore: ["Jo"], sur: "Bloggs" },
  utr: "5334567890",
  verificationNumber: "V1234567890",
  totalPaymentsP: 150_000,
  costOfMaterialsP: 30_000,
  totalDeductedP: 24_000,
};

export async function cis300Message(employerRef = uniqueEmployerRef()) {
  const built = await buildCis300Message({
    employerRef,
    accountsOfficeRef: "123PG00012345",
    contractorUtr: "2234567890",
    periodEnd: "2026-02-05",
    nil: false,
    lines: [SAMPLE_RETURN_LINE],
    declarations: { employmentStatus: true, verification: true },
    correlationId: newCorrelationId(),
    gatewayTimestamp: new Date(),
    product: { name: "CIS Workspace", version: "1.0" },
  });
  return { ...built, employerRef };
}

export async function withCredentials(t: TestTenant) {
  const res = await saveGatewayCredentials(
    env,
    t.id,
    { senderId: GATEWAY_SENDER, password: GATEWAY_PASSWORD },
    { id: "setup", email: "setup@example.test", name: "Test Actor", ip: null },
  );
  if (!res.ok) throw new Error(res.code);
}

export async function submissionRow(tenantId: string, id: string) {
  const [row] = await getDb(env)
    .select()
    .from(hmrcSubmissions)
    .where(and(eq(hmrcSubmissions.tenantId, tenantId), eq(hmrcSubmissions.id, id)));
  return row;
}

/** What the fake Transaction Engine logged for a correlation id, decrypted. */
export async function fakeMessages(correlationId: string) {
  return readDevHmrcMessages(env, correlationId);
}
