import { getFormProps, getInputProps, getSelectProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, Link } from "react-router";
import { buttonClass, SubmitButton } from "~/components/ui/button";
import { confirmThenSubmit } from "~/components/ui/confirm-then-submit";
import { Field, inputClass } from "~/components/ui/field";
import { EmptyRow, TBody, TD, TH, THead, TR, Table } from "~/components/ui/table";
import { requireModule } from "~/features/auth/index.server";
import { requireScope } from "~/features/auth/index.server";
import { can } from "~/features/auth";
import { AppShell } from "~/features/platform";
import { redirectWithToast } from "~/features/platform/index.server";
import { SubmissionKeyInput } from "~/features/platform";
import { mintSubmissionKey, submitOnce } from "~/features/platform/index.server";
import { formatDate } from "~/utils/dates";
import { CHANGE_ERRORS, STATUS_LABELS } from "../codes";
import { inviteUser } from "../invitations.server";
import { sendPasswordReset } from "../password-reset.server";
import { ROLE_LABELS, ROLES } from "../labels";
import { type inviteSchema, usersActionSchema, usersSearchSchema } from "../schemas";
import type { z } from "zod";
import { changeRole, getMember, listMembers, reinviteMember, scrubMember, setMemberDisabled } from "../users.server";
import { usersIntentSchema } from "../schemas";
import type { Route } from "./+types/users";

const PATH = "/settings/users";

export async function loader({ request, context }: Route.LoaderArgs) {
  const { env, tenant, user } = await requireModule(request, context, { module: "workspace", scope: "users.view" });
  const { q } = usersSearchSchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const members = await listMembers(env, tenant.id, q);
  const canManage = can(user, "users.manage");
  // The forms that send e-mail (invite, reset link, resend invitation) are acted on once per key.
  const keys: { invite: string | null; mail: Record<string, string> } = { invite: null, mail: {} };
  if (canManage) {
    keys.invite = await mintSubmissionKey(env, inviteScope(tenant.id, user.id));
    for (const m of members) if (m.status !== "disabled") keys.mail[m.id] = await mintSubmissionKey(env, memberMailScope(tenant.id, user.id, m.id));
  }
  return {
    q,
    members,
    me: user.id,
    canManage,
    canScrub: can(user, "users.scrub_pii"),
    keys,
  };
}

const inviteScope = (tenantId: string, userId: string) => ({ tenantId, userId, action: "team.invite" });
/** A password reset link or a resent invitation for one member. */
const memberMailScope = (tenantId: string, userId: string, memberId: string) => ({ tenantId, userId, action: `team.member-mail:${memberId}` });

export async function action({ request, context }: Route.ActionArgs) {
  const { env, tenant, user, actor, ip } = await requireModule(request, context, { module: "workspace" });
  const formData = await request.formData();
  const intent = usersIntentSchema.safeParse({ intent: formData.get("intent") });
  if (!intent.success) throw data("Unknown action", { status: 400 });
  // The scope is checked before anything else is read.
  await requireScope(request, context, user, intent.data.intent === "scrub" ? "users.scrub_pii" : "users.manage");
  const submission = parseWithZod(formData, { schema: usersActionSchema });
  if (submission.status !== "success") {
    if (intent.data.intent === "invite") return data({ result: submission.reply(), confirm: null }, { status: 400 });
    throw data("Invalid request", { status: 400 });
  }
  const input = submission.value;
  const opts = { actor, ip };
  const done = (title: string, message?: string) => redirectWithToast(env, PATH, { type: "success", title, message });
  const refused = (code: keyof typeof CHANGE_ERRORS) => {
    // Another tenant's user (or none) is not found, never forbidden.
    if (code === "not_found") throw data("Page not found", { status: 404 });
    return redirectWithToast(env, PATH, { type: "error", title: "Nothing changed", message: CHANGE_ERRORS[code] });
  };

  switch (input.intent) {
    case "invite": {
      const sent = await submitOnce(env, formData, inviteScope(tenant.id, user.id), (claim) =>
        inviteUser(env, { tenantId: tenant.id, email: input.email, role: input.role, displayName: input.displayName, actor, claim }),
      );
      if (sent.kind === "refused" || sent.kind === "pending")
        return data({ result: submission.reply({ formErrors: [sent.message] }), confirm: null }, { status: 409 });
      const res = sent.result;
      if (!res.ok) return data({ result: submission.reply({ fieldErrors: { email: [CHANGE_ERRORS[res.code]] } }), confirm: null }, { status: 400 });
      return done("Invitation sent", `${input.email} can activate their account from the e-mail for 7 days.`);
    }
    case "role": {
      const res = await changeRole(env, tenant.id, input.userId, input.role, opts);
      return res.ok ? done("Role changed") : refused(res.code);
    }
    case "disable":
    case "scrub": {
      if (input.confirmed !== "yes") {
        // Without JavaScript the confirmation is a page of its own.
        const member = await getMember(env, tenant.id, input.userId);
        if (!member) throw data("Page not found", { status: 404 });
        return data({ result: null, confirm: { intent: input.intent, member } });
      }
      const res =
        input.intent === "disable" ? await setMemberDisabled(env, tenant.id, input.userId, true, opts) : await scrubMember(env, tenant.id, input.userId, opts);
      if (!res.ok) return refused(res.code);
      return input.intent === "disable"
        ? done("User disabled", "Their sessions have ended.")
        : done("Personal data erased", "The account now shows as Former user.");
    }
    case "enable": {
      const res = await setMemberDisabled(env, tenant.id, input.userId, false, opts);
      return res.ok ? done("User enabled") : refused(res.code);
    }
    case "reset": {
      // Another tenant's user (or none) is not found, before the form's key is looked at.
      if (!(await getMember(env, tenant.id, input.userId))) throw data("Page not found", { status: 404 });
      const sent = await submitOnce(env, formData, memberMailScope(tenant.id, user.id, input.userId), (claim) =>
        sendPasswordReset(env, tenant.id, input.userId, { ...opts, claim }),
      );
      if (sent.kind === "refused" || sent.kind === "pending")
        return redirectWithToast(env, PATH, { type: "error", title: "Nothing sent", message: sent.message });
      const res = sent.result;
      return res.ok ? done("Password reset link sent", "The link works once, for 1 hour.") : refused(res.code);
    }
    case "reinvite": {
      // Another tenant's user (or none) is not found, before the form's key is looked at.
      if (!(await getMember(env, tenant.id, input.userId))) throw data("Page not found", { status: 404 });
      const sent = await submitOnce(env, formData, memberMailScope(tenant.id, user.id, input.userId), (claim) =>
        reinviteMember(env, tenant.id, input.userId, { ...opts, claim }),
      );
      if (sent.kind === "refused" || sent.kind === "pending")
        return redirectWithToast(env, PATH, { type: "error", title: "Nothing sent", message: sent.message });
      const res = sent.result;
      return res.ok ? done("Invitation sent again", "The earlier link no longer works.") : refused(res.code);
    }
  }
}

const CONFIRM_TEXT = {
  disable: (name: string) => `Disable ${name}? They are signed out everywhere at once and cannot sign in until enabled again.`,
  scrub: (name: string) => `Erase ${name}'s personal data? Their e-mail and names are removed for good; the audit trail keeps showing 'Former user'.`,
} as const;

export default function Users({ loaderData, actionData }: Route.ComponentProps) {
  const { members, q, me, canManage, canScrub, keys } = loaderData;
  const confirm = actionData?.confirm ?? null;
  return (
    <AppShell>
      <div className="mx-auto max-w-6xl px-6 py-10">
        <h1 className="text-2xl font-bold">Users</h1>
        <p className="text-sm opacity-70">Everyone with an account in this workspace.</p>

        {confirm ? <ConfirmAction confirm={confirm} /> : null}

        {canManage ? <InviteForm lastResult={actionData?.result ?? undefined} submissionKey={keys.invite} /> : null}

        <Form method="get" className="mt-8 flex items-end gap-3" role="search">
          <div className="flex-1">
            <label htmlFor="q" className="block text-sm font-medium">
              Search by name or e-mail
            </label>
            <input id="q" name="q" type="search" defaultValue={q} className={inputClass} />
          </div>
          <button type="submit" className={buttonClass("secondary")}>
            Search
          </button>
        </Form>

        <UsersTable members={members} me={me} canManage={canManage} canScrub={canScrub} mailKeys={keys.mail} />
      </div>
    </AppShell>
  );
}

type Member = Route.ComponentProps["loaderData"]["members"][number];
type Confirm = NonNullable<NonNullable<Route.ComponentProps["actionData"]>["confirm"]>;

/** The no-JavaScript confirmation of disabling a user or erasing their personal data. */
function ConfirmAction({ confirm }: { confirm: Confirm }) {
  return (
    <section role="alertdialog" aria-labelledby="confirm-heading" className="mt-6 rounded-brand border border-danger bg-elevated p-6">
      <h2 id="confirm-heading" className="text-lg font-semibold">
        {confirm.intent === "disable" ? "Disable this user?" : "Erase this user's personal data?"}
      </h2>
      <p className="mt-2 text-sm">{CONFIRM_TEXT[confirm.intent](confirm.member.displayName)}</p>
      <Form method="post" className="mt-4 flex gap-3">
        <input type="hidden" name="intent" value={confirm.intent} />
        <input type="hidden" name="userId" value={confirm.member.id} />
        <input type="hidden" name="confirmed" value="yes" />
        <SubmitButton variant="danger" pendingText="Working..." match={{ intent: confirm.intent, confirmed: "yes" }}>
          {confirm.intent === "disable" ? "Yes, disable" : "Yes, erase"}
        </SubmitButton>
        <Link to={PATH} className={buttonClass("secondary")}>
          Cancel
        </Link>
      </Form>
    </section>
  );
}

type UsersTableProps = { members: Member[]; me: string; canManage: boolean; canScrub: boolean; mailKeys: Record<string, string> };

/**
 * On a phone the table stacks: each user is a block with the name first and every other column
 * as a labelled line beneath it, then the actions, so nothing scrolls sideways. From the small
 * breakpoint up it is an ordinary table (in its own scroll box, name and e-mail first).
 */
const STACKED = {
  table: "max-sm:block",
  head: "max-sm:sr-only",
  body: "max-sm:block",
  row: "max-sm:flex max-sm:flex-col max-sm:gap-1 max-sm:py-3",
  cell: "max-sm:px-0 max-sm:py-0",
  labelled: "max-sm:px-0 max-sm:py-0 max-sm:before:mr-1 max-sm:before:opacity-70 max-sm:before:content-[attr(data-label)]",
};

function UsersTable({ members, me, canManage, canScrub, mailKeys }: UsersTableProps) {
  const actions = canManage || canScrub;
  return (
    <Table caption="Users by name" className={STACKED.table} scrollClassName="mt-4 overflow-x-auto">
      <THead className={STACKED.head}>
        <TH>Name</TH>
        <TH>E-mail</TH>
        <TH>Role</TH>
        <TH>Teams and sites</TH>
        <TH>Status</TH>
        <TH>Since</TH>
        {actions ? <TH>Actions</TH> : null}
      </THead>
      <TBody className={STACKED.body}>
        {members.length === 0 ? (
          <EmptyRow colSpan={actions ? 7 : 6}>No users found</EmptyRow>
        ) : (
          members.map((m) => <UserRow key={m.id} m={m} me={me} canManage={canManage} canScrub={canScrub} actions={actions} mailKeys={mailKeys} />)
        )}
      </TBody>
    </Table>
  );
}

function UserRow({ m, me, canManage, canScrub, actions, mailKeys }: Omit<UsersTableProps, "members"> & { m: Member; actions: boolean }) {
  return (
    <TR data-user={m.email || m.id} className={STACKED.row}>
      <TD className={`font-medium ${STACKED.cell}`}>
        {m.displayName}
        {m.id === me ? <span className="ml-2 text-xs opacity-70">(you)</span> : null}
      </TD>
      <TD data-label="E-mail:" className={STACKED.labelled}>
        {m.email || "N/A"}
      </TD>
      <TD data-label="Role:" className={STACKED.labelled}>
        {ROLE_LABELS[m.role]}
      </TD>
      <TD data-testid="groups" data-label="Teams and sites:" className={`text-sm ${STACKED.labelled}`}>
        {m.teams || m.sites ? (
          <>
            {m.teams ? <span className="block">Teams: {m.teams}</span> : null}
            {m.sites ? <span className="block">Sites: {m.sites}</span> : null}
          </>
        ) : (
          "None"
        )}
      </TD>
      <TD data-testid="status" data-label="Status:" className={STACKED.labelled}>
        {STATUS_LABELS[m.status]}
      </TD>
      <TD data-label="Since:" className={`whitespace-nowrap ${STACKED.labelled}`}>
        {formatDate(m.createdAt)}
      </TD>
      {actions ? (
        <TD className={`max-sm:pt-2 ${STACKED.cell}`}>
          {m.id === me || m.scrubbed ? null : (
            <div className="flex flex-wrap items-center gap-2">
              {canManage ? (
                <>
                  <RoleForm m={m} />
                  {m.status === "disabled" ? (
                    <RowAction intent="enable" userId={m.id} label="Enable" />
                  ) : (
                    <RowAction intent="disable" userId={m.id} label="Disable" confirmText={CONFIRM_TEXT.disable(m.displayName)} />
                  )}
                  {m.status === "active" ? <RowAction intent="reset" userId={m.id} label="Send password reset" submissionKey={mailKeys[m.id]} /> : null}
                  {m.status === "invited" ? <RowAction intent="reinvite" userId={m.id} label="Resend invitation" submissionKey={mailKeys[m.id]} /> : null}
                </>
              ) : null}
              {canScrub && m.status === "disabled" ? (
                <RowAction intent="scrub" userId={m.id} label="Erase personal data" confirmText={CONFIRM_TEXT.scrub(m.displayName)} />
              ) : null}
            </div>
          )}
        </TD>
      ) : null}
    </TR>
  );
}

/** The role picker of one member. */
function RoleForm({ m }: { m: Member }) {
  return (
    <Form method="post" className="flex items-center gap-1">
      <input type="hidden" name="intent" value="role" />
      <input type="hidden" name="userId" value={m.id} />
      <label className="sr-only" htmlFor={`role-${m.id}`}>
        Role for {m.displayName}
      </label>
      <select id={`role-${m.id}`} name="role" defaultValue={m.role} className="rounded-brand border border-line bg-primary-bg px-2 py-1 text-sm">
        {ROLES.map((r) => (
          <option key={r} value={r}>
            {ROLE_LABELS[r]}
          </option>
        ))}
      </select>
      <SubmitButton variant="secondary" className="px-2 py-1" pendingText="Saving..." match={{ intent: "role", userId: m.id }}>
        Change role
      </SubmitButton>
    </Form>
  );
}

/** One button posting one intent for one user; a destructive one asks first (dialog with JavaScript, a server step without). */
function RowAction({
  intent,
  userId,
  label,
  confirmText,
  submissionKey,
}: {
  intent: string;
  userId: string;
  label: string;
  confirmText?: string;
  submissionKey?: string;
}) {
  return (
    <Form method="post" onSubmit={confirmText ? confirmThenSubmit(() => confirmText) : undefined}>
      <input type="hidden" name="intent" value={intent} />
      {submissionKey ? <SubmissionKeyInput value={submissionKey} /> : null}
      <input type="hidden" name="userId" value={userId} />
      {confirmText ? <input type="hidden" name="confirmed" value="" /> : null}
      <SubmitButton variant={confirmText ? "danger" : "secondary"} className="px-2 py-1" pendingText="Working..." match={{ intent, userId }}>
        {label}
      </SubmitButton>
    </Form>
  );
}

function InviteForm({ lastResult, submissionKey }: { lastResult?: SubmissionResult<string[]>; submissionKey: string | null }) {
  const [form, fields] = useForm<z.input<typeof inviteSchema>>({
    lastResult,
    defaultValue: { role: "standard" },
  });
  return (
    <section className="mt-8 rounded-brand border border-line bg-elevated p-6" aria-labelledby="invite-heading">
      <h2 id="invite-heading" className="text-lg font-semibold">
        Invite a user
      </h2>
      <p className="text-sm opacity-70">They receive an e-mail with a link to choose their password. The link works once, for 7 days.</p>
      <Form method="post" {...getFormProps(form)} className="mt-4 grid gap-4 sm:grid-cols-[2fr_2fr_1fr_auto] sm:items-end">
        <input type="hidden" name="intent" value="invite" />
        {submissionKey ? <SubmissionKeyInput value={submissionKey} /> : null}
        <Field id={fields.email.id} label="E-mail" error={fields.email.errors}>
          <input {...getInputProps(fields.email, { type: "email" })} key={fields.email.key} autoComplete="off" className={inputClass} />
        </Field>
        <Field id={fields.displayName.id} label="Name (optional)" error={fields.displayName.errors}>
          <input {...getInputProps(fields.displayName, { type: "text" })} key={fields.displayName.key} className={inputClass} />
        </Field>
        <Field id={fields.role.id} label="Role" error={fields.role.errors}>
          <select {...getSelectProps(fields.role)} key={fields.role.key} className={inputClass}>
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {ROLE_LABELS[r]}
              </option>
            ))}
          </select>
        </Field>
        <SubmitButton pendingText="Sending..." match={{ intent: "invite" }}>
          Send invitation
        </SubmitButton>
      </Form>
    </section>
  );
}

export function meta() {
  return [{ title: "Users" }];
}
