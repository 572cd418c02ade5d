import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import { requireScope } from "~/features/auth/index.server";
import { can } from "~/features/auth";
import { clientIp } from "~/features/platform/index.server";
import { formErrorReply } from "~/utils/forms";
import { mintSubmissionKey, submitOnce } from "~/features/platform/index.server";
import { type InviteActionData, type InviteLoaderData, InvitePanel, inviteRefusalMessage } from "../portal-invites/components/invite-to-portal";
import { requireModule } from "~/features/auth/index.server";
import { REVEAL_REFUSAL_MESSAGES, revealRefusalStatus } from "../portal-invites/portal-invite-codes";
import { inviteCreateSchema, portalInviteIntentSchema, portalInviteParamsSchema } from "../portal-invites/schemas";
import { inviteRefusal, issuePortalInvite, portalInviteScope, revealPortalLink } from "../portal-invites/portal-invites.server";
import { SUBCONTRACTOR_SAVE_MESSAGES } from "../subcontractors/subcontractor-messages";
import { createSubcontractor, getSubcontractor } from "../subcontractors/subcontractors.server";
import type { Route } from "./+types/portal-invite";

/**
 * Seeing a portal link lets one act as the subcontractor, so 'Show link' needs the invoice
 * write scope on top of the invite scope, and whoever sees it may not approve or pay what is
 * submitted through it.
 */
const REVEAL_SCOPE = "cis.inv.write";

async function guard(request: Request, context: Route.LoaderArgs["context"], creating: boolean) {
  const cis = await requireModule(request, context, { module: "cis", scope: "cis.portal.invite" });
  if (creating) await requireScope(request, context, cis.user, "cis.sub.write");
  return cis;
}

/** A repeated post of the same invite form: nothing new was sent. */
function inviteAlreadySentMessage(email: string, emailSent: boolean): string {
  return emailSent
    ? `This invitation was already sent to ${email}; nothing was sent again. Reload the page to send a new link.`
    : `This invitation was already created; nothing was sent again. Reload the page to create a new link.`;
}

// A magic link travels only in the response that shows it: never cached, never in a URL or a toast.
const NO_STORE = { "Cache-Control": "no-store" };

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { id } = portalInviteParamsSchema.parse(params);
  const { env, tenant, user } = await guard(request, context, !id);
  if (!id) {
    const create: InviteLoaderData = { mode: "create" };
    return create;
  }
  const sub = await getSubcontractor(env, tenant.id, id);
  if (!sub) throw data("Not found", { status: 404 });
  const existing: InviteLoaderData = {
    mode: "existing",
    subcontractor: { id: sub.id, name: sub.name, email: sub.email, active: sub.active },
    canEdit: can(user, "cis.sub.write"),
    submissionKey: await mintSubmissionKey(env, portalInviteScope(tenant.id, user.id, sub.id)),
  };
  return existing;
}

type Reply = (body: InviteActionData, status?: number) => ReturnType<typeof data<InviteActionData>>;

/** What each of the action's three steps needs: who acts, for which tenant, and how to answer. */
type InviteStep = Awaited<ReturnType<typeof guard>> & { formData: FormData; origin: string; ip: string | null; reply: Reply; canReveal: boolean };

export async function action({ request, context, params }: Route.ActionArgs) {
  const { id } = portalInviteParamsSchema.parse(params);
  const cis = await guard(request, context, !id);
  const formData = await request.formData();
  const intent = portalInviteIntentSchema.safeParse({ intent: formData.get("intent"), invite: formData.get("invite") ?? undefined });
  // Each route takes its own intents only.
  if (!intent.success || (intent.data.intent !== "create") !== Boolean(id)) throw data("Unknown action", { status: 400 });
  const step: InviteStep = {
    ...cis,
    formData,
    origin: new URL(request.url).origin,
    ip: clientIp(request),
    reply: (body, status = 200) => data(body, { status, headers: NO_STORE }),
    canReveal: can(cis.user, REVEAL_SCOPE),
  };
  if (id && intent.data.intent === "reveal") {
    await requireScope(request, context, cis.user, REVEAL_SCOPE);
    return revealLink(step, id, intent.data.invite);
  }
  if (id) return inviteExisting(step, id);
  return createAndInvite(step);
}

/** 'Show link': the live link again, for whoever may see it (audited; they may not approve what comes through it). */
async function revealLink({ env, tenant, actor, origin, ip, reply, canReveal }: InviteStep, id: string, inviteId: string) {
  let shown: Awaited<ReturnType<typeof revealPortalLink>>;
  try {
    shown = await revealPortalLink(env, { tenantId: tenant.id, subcontractorId: id, inviteId, actor, origin, ip });
  } catch (err) {
    console.error("Show link failed", err instanceof Error ? err.message : err);
    throw data("The link could not be shown. Please try again.", { status: 500, headers: NO_STORE });
  }
  const base = { kind: "result", created: false, subcontractorId: id, inviteId, canReveal } as const;
  if (shown.ok) return reply({ ...base, name: shown.name, email: shown.email, emailSent: shown.emailSent, magicLink: shown.magicLink, revealError: null });
  const { code } = shown;
  if (code === "not_found") throw data("Not found", { status: 404 });
  const sub = await getSubcontractor(env, tenant.id, id);
  return reply(
    { ...base, name: sub?.name ?? "", email: sub?.email ?? "", emailSent: true, magicLink: null, revealError: REVEAL_REFUSAL_MESSAGES[code] },
    revealRefusalStatus(code),
  );
}

/** A new link for an existing subcontractor, once per form (a repeated post sends nothing again). */
async function inviteExisting({ env, tenant, user, actor, formData, origin, ip, reply, canReveal }: InviteStep, id: string) {
  const sub = await getSubcontractor(env, tenant.id, id);
  if (!sub) throw data("Not found", { status: 404 });
  // A subcontractor who cannot be invited is refused as such, before the form's key is looked at.
  const refusal = inviteRefusal(sub);
  if (refusal) return reply({ kind: "form", result: formErrorReply(inviteRefusalMessage(refusal, sub.name)) }, refusal === "archived" ? 409 : 400);
  try {
    // The link is a secret, so it is not kept for a repeat: the stored answer says where it went.
    let magicLink: string | null = null;
    let inviteId: string | null = null;
    const sent = await submitOnce(env, formData, portalInviteScope(tenant.id, user.id, sub.id), async (claim) => {
      const issued = await issuePortalInvite(env, { tenant, subcontractor: sub, actor, origin, ip, created: false, claim });
      if (!issued.ok) return issued;
      magicLink = issued.invite.magicLink;
      inviteId = issued.invite.inviteId;
      return { ok: true as const, email: issued.invite.email, emailSent: issued.invite.emailSent };
    });
    if (sent.kind === "refused" || sent.kind === "pending") return reply({ kind: "form", result: formErrorReply(sent.message) }, 409);
    const issued = sent.result;
    if (!issued.ok) return reply({ kind: "form", result: formErrorReply(inviteRefusalMessage(issued.code, sub.name)) }, issued.code === "archived" ? 409 : 400);
    if (sent.kind === "repeat" || inviteId === null)
      return reply({ kind: "form", result: formErrorReply(inviteAlreadySentMessage(issued.email, issued.emailSent)) }, 409);
    return reply({
      kind: "result",
      created: false,
      subcontractorId: sub.id,
      inviteId,
      name: sub.name,
      email: issued.email,
      emailSent: issued.emailSent,
      magicLink,
      canReveal,
      revealError: null,
    });
  } catch (err) {
    console.error("Portal invite failed", err instanceof Error ? err.message : err);
    return reply({ kind: "form", result: formErrorReply("Failed to send invitation") }, 500);
  }
}

/** 'Create and invite': a new active subcontractor, then its first link. */
async function createAndInvite({ env, tenant, user, actor, formData, origin, ip, reply, canReveal }: InviteStep) {
  const submission = parseWithZod(formData, { schema: inviteCreateSchema });
  if (submission.status !== "success") return reply({ kind: "form", result: submission.reply() }, 400);
  const input = submission.value;
  let created: Awaited<ReturnType<typeof createSubcontractor>>;
  try {
    // The modal records no verification, so cis.sub.verify is not needed here.
    created = await createSubcontractor(env, tenant.id, input, actor, { active: true, canVerify: can(user, "cis.sub.verify") });
  } catch (err) {
    console.error("Create and invite failed", err instanceof Error ? err.message : err);
    return reply({ kind: "form", result: submission.reply({ formErrors: ["Failed to create subcontractor and send invitation"] }) }, 500);
  }
  if (!created.ok) {
    const result =
      created.code === "duplicate_utr"
        ? submission.reply({ fieldErrors: { utr: [SUBCONTRACTOR_SAVE_MESSAGES.duplicate_utr] } })
        : submission.reply({ formErrors: [SUBCONTRACTOR_SAVE_MESSAGES[created.code]] });
    return reply({ kind: "form", result }, 400);
  }
  try {
    const issued = await issuePortalInvite(env, {
      tenant,
      subcontractor: { id: created.id, name: input.name, email: input.email, active: true },
      actor,
      origin,
      ip,
      created: true,
    });
    if (!issued.ok) throw new Error(`invite refused: ${issued.code}`);
    const { invite } = issued;
    return reply({
      kind: "result",
      created: true,
      subcontractorId: created.id,
      inviteId: invite.inviteId,
      name: input.name,
      email: invite.email,
      emailSent: invite.emailSent,
      magicLink: invite.magicLink,
      canReveal,
      revealError: null,
    });
  } catch (err) {
    console.error("Portal invite failed after create", err instanceof Error ? err.message : err);
    // The subcontractor exists now: say so, so nobody creates it twice.
    return reply(
      {
        kind: "form",
        result: formErrorReply("Subcontractor created, but the invitation failed. Failed to send invitation: invite them from the subcontractor list."),
      },
      500,
    );
  }
}

/** Document responses too: the result page carries the link, so no cache may keep it. */
export function headers() {
  return NO_STORE;
}

export default function PortalInvite({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-xl rounded-brand border border-line bg-elevated p-6">
      <InvitePanel view={loaderData} actionData={actionData} titleId="portal-invite-title" />
    </div>
  );
}

export function meta() {
  return [{ title: "Invite Subcontractor to Portal" }];
}
