import { z } from "zod";

/**
 * Every e-mail the product sends, as a typed template. The consumer renders at delivery
 * time. A template whose data carries a secret (a sign-in code, a magic link) names how long
 * that secret lives (`secretLifetimeMs`, at least the secret's own expiry): its outbox data is
 * scrubbed once delivered, once that lifetime has passed, or when delivery fails for good,
 * and an e-mail whose secret has expired is never sent.
 */
const MINUTE = 60_000;

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);

function layout(title: string, bodyHtml: string): string {
  return `<!doctype html><html lang="en-GB"><head><meta charset="utf-8"><title>${escape(title)}</title></head><body style="font-family:Arial,Helvetica,sans-serif;color:#111;max-width:560px;margin:0 auto;padding:24px">${bodyHtml}<p style="color:#666;font-size:12px;margin-top:32px">Sent by Workspace. If you did not expect this message you can ignore it.</p></body></html>`;
}

export const TEMPLATES = {
  "auth.login-code": {
    // A sign-in code is valid for 10 minutes.
    secretLifetimeMs: 10 * MINUTE,
    schema: z.object({ code: z.string().regex(/^\d{6}$/), tenantName: z.string(), expiresInMinutes: z.number().int() }),
    render: (d: { code: string; tenantName: string; expiresInMinutes: number }) => ({
      subject: `Your ${d.tenantName} sign-in code: ${d.code}`,
      text: `Your sign-in code for ${d.tenantName} is ${d.code}.\n\nIt expires in ${d.expiresInMinutes} minutes and can be used once. If you did not try to sign in, change your password.`,
      html: layout(
        "Your sign-in code",
        `<p>Your sign-in code for <strong>${escape(d.tenantName)}</strong> is:</p><p style="font-size:28px;letter-spacing:6px;font-weight:bold">${escape(d.code)}</p><p>It expires in ${d.expiresInMinutes} minutes and can be used once. If you did not try to sign in, change your password.</p>`,
      ),
    }),
  },
  "auth.account-locked": {
    secretLifetimeMs: null,
    schema: z.object({ lockedMinutes: z.number().int().positive() }),
    render: (d: { lockedMinutes: number }) => ({
      subject: "Sign-in to your account is paused",
      text: `There have been many failed attempts to sign in with your e-mail address, from several places. For your security, sign-in to your account is paused for ${d.lockedMinutes} minutes everywhere.\n\nIf this was not you, someone may be guessing your password: once sign-in opens again, change it to one you do not use anywhere else. If you are locked out, ask your administrator for a password reset link.`,
      html: layout(
        "Sign-in to your account is paused",
        `<p>There have been many failed attempts to sign in with your e-mail address, from several places. For your security, sign-in to your account is paused for ${d.lockedMinutes} minutes everywhere.</p><p>If this was not you, someone may be guessing your password: once sign-in opens again, change it to one you do not use anywhere else. If you are locked out, ask your administrator for a password reset link.</p>`,
      ),
    }),
  },
  "portal.invite": {
    // A portal magic link is valid for 15 minutes.
    secretLifetimeMs: 15 * MINUTE,
    schema: z.object({
      recipientName: z.string(),
      subcontractorName: z.string(),
      contractorName: z.string(),
      magicLink: z.string().url(),
      expiresIn: z.string(),
    }),
    render: (d: { recipientName: string; subcontractorName: string; contractorName: string; magicLink: string; expiresIn: string }) => ({
      subject: `${d.contractorName} invites you to their subcontractor portal`,
      text: `Hello ${d.recipientName},\n\n${d.contractorName} has invited ${d.subcontractorName} to their subcontractor portal.\n\nOpen this link to sign in (it expires in ${d.expiresIn} and can be used once):\n${d.magicLink}\n\nIf the link has expired, ask ${d.contractorName} for a new one.`,
      html: layout(
        "Portal invitation",
        `<p>Hello ${escape(d.recipientName)},</p><p>${escape(d.contractorName)} has invited ${escape(d.subcontractorName)} to their subcontractor portal.</p><p><a href="${escape(d.magicLink)}" style="display:inline-block;background:#00d15a;color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none">Open the portal</a></p><p>The link expires in ${escape(d.expiresIn)} and can be used once. If it has expired, ask ${escape(d.contractorName)} for a new one.</p>`,
      ),
    }),
  },
  "portal.signature-request": {
    // The portal magic link in it is valid for 15 minutes.
    secretLifetimeMs: 15 * MINUTE,
    schema: z.object({
      recipientName: z.string(),
      contractorName: z.string(),
      requesterName: z.string(),
      documentName: z.string(),
      magicLink: z.string().url(),
      expiresIn: z.string(),
    }),
    render: (d: { recipientName: string; contractorName: string; requesterName: string; documentName: string; magicLink: string; expiresIn: string }) => ({
      subject: `${d.contractorName} asks you to sign ${d.documentName}`,
      text: `Hello ${d.recipientName},\n\n${d.requesterName} of ${d.contractorName} asks you to review and sign "${d.documentName}".\n\nOpen this link to sign in to the subcontractor portal and sign or decline it (it expires in ${d.expiresIn} and can be used once):\n${d.magicLink}\n\nIf the link has expired, ask ${d.contractorName} for a new portal link: the document waits for you in the portal.`,
      html: layout(
        "Document to sign",
        `<p>Hello ${escape(d.recipientName)},</p><p>${escape(d.requesterName)} of ${escape(d.contractorName)} asks you to review and sign <strong>${escape(d.documentName)}</strong>.</p><p><a href="${escape(d.magicLink)}" style="display:inline-block;background:#00d15a;color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none">Review and sign</a></p><p>The link signs you in to the subcontractor portal. It expires in ${escape(d.expiresIn)} and can be used once. If it has expired, ask ${escape(d.contractorName)} for a new portal link: the document waits for you in the portal.</p>`,
      ),
    }),
  },
  // A copy of an invoice for the subcontractor who issued it. Amounts and dates come formatted
  // (this layer knows no CIS rules); tax identifiers are never part of it.
  "cis.invoice-copy": {
    secretLifetimeMs: null,
    schema: z.object({
      contractorName: z.string().max(200),
      subcontractorName: z.string().max(200),
      invoiceNumber: z.string().max(50),
      status: z.string().max(50),
      invoiceDate: z.string().max(20),
      paymentDate: z.string().max(20),
      taxMonth: z.string().max(60),
      gross: z.string().max(30),
      materials: z.string().max(30),
      labour: z.string().max(30),
      cisDeduction: z.string().max(60),
      vat: z.string().max(60),
      grossTotal: z.string().max(30),
      netPayment: z.string().max(30),
    }),
    render: (d: {
      contractorName: string;
      subcontractorName: string;
      invoiceNumber: string;
      status: string;
      invoiceDate: string;
      paymentDate: string;
      taxMonth: string;
      gross: string;
      materials: string;
      labour: string;
      cisDeduction: string;
      vat: string;
      grossTotal: string;
      netPayment: string;
    }) => {
      const rows: [string, string][] = [
        ["Invoice number", d.invoiceNumber],
        ["Status", d.status],
        ["Invoice date", d.invoiceDate],
        ["Payment date", d.paymentDate],
        ["Tax month", d.taxMonth],
        ["Gross", d.gross],
        ["Materials", d.materials],
        ["Labour", d.labour],
        ["CIS deduction", d.cisDeduction],
        ["VAT", d.vat],
        ["Gross total", d.grossTotal],
        ["Net payment", d.netPayment],
      ];
      return {
        subject: `Invoice ${d.invoiceNumber} from ${d.contractorName}`,
        text: `Hello ${d.subcontractorName},\n\n${d.contractorName} sends you a copy of invoice ${d.invoiceNumber} as they have recorded it.\n\n${rows.map(([k, v]) => `${k}: ${v}`).join("\n")}\n\nIf anything here is wrong, contact ${d.contractorName}.`,
        html: layout(
          `Invoice ${d.invoiceNumber}`,
          `<p>Hello ${escape(d.subcontractorName)},</p><p>${escape(d.contractorName)} sends you a copy of invoice <strong>${escape(d.invoiceNumber)}</strong> as they have recorded it.</p><table style="border-collapse:collapse;width:100%">${rows
            .map(
              ([k, v]) =>
                `<tr><th scope="row" style="text-align:left;padding:4px 8px;border-bottom:1px solid #ddd">${escape(k)}</th><td style="text-align:right;padding:4px 8px;border-bottom:1px solid #ddd">${escape(v)}</td></tr>`,
            )
            .join("")}</table><p>If anything here is wrong, contact ${escape(d.contractorName)}.</p>`,
        ),
      };
    },
  },
  // A payment and deduction statement, with its PDF attached. The PDF is named by its R2 key (under
  // the sending tenant, checked at delivery) so the outbox row and the queue message stay small;
  // the consumer fetches and attaches it. From and Reply-To are the tenant's own addresses.
  "cis.statement": {
    secretLifetimeMs: null,
    schema: z.object({
      contractorName: z.string().max(200),
      subcontractorName: z.string().max(200),
      period: z.string().max(100),
      gross: z.string().max(30),
      cisDeduction: z.string().max(30),
      netPayment: z.string().max(30),
      from: z.string().email().max(254).nullable(),
      replyTo: z.string().email().max(254).nullable(),
      attachment: z.object({ key: z.string().min(1).max(500), filename: z.string().min(1).max(200) }),
    }),
    render: (d: {
      contractorName: string;
      subcontractorName: string;
      period: string;
      gross: string;
      cisDeduction: string;
      netPayment: string;
      from: string | null;
      replyTo: string | null;
      attachment: { key: string; filename: string };
    }) => {
      const rows: [string, string][] = [
        ["Tax month", d.period],
        ["Gross payment", d.gross],
        ["CIS deduction", d.cisDeduction],
        ["Net payment", d.netPayment],
      ];
      return {
        subject: `CIS payment and deduction statement for ${d.period} from ${d.contractorName}`,
        text: `Hello ${d.subcontractorName},\n\n${d.contractorName} sends you your CIS payment and deduction statement for ${d.period}. It is attached as a PDF (${d.attachment.filename}).\n\n${rows.map(([k, v]) => `${k}: ${v}`).join("\n")}\n\nKeep this statement for at least 6 years. If anything here is wrong, contact ${d.contractorName}.`,
        html: layout(
          "CIS payment and deduction statement",
          `<p>Hello ${escape(d.subcontractorName)},</p><p>${escape(d.contractorName)} sends you your CIS payment and deduction statement for <strong>${escape(d.period)}</strong>. It is attached as a PDF (${escape(d.attachment.filename)}).</p><table style="border-collapse:collapse;width:100%">${rows
            .map(
              ([k, v]) =>
                `<tr><th scope="row" style="text-align:left;padding:4px 8px;border-bottom:1px solid #ddd">${escape(k)}</th><td style="text-align:right;padding:4px 8px;border-bottom:1px solid #ddd">${escape(v)}</td></tr>`,
            )
            .join("")}</table><p>Keep this statement for at least 6 years. If anything here is wrong, contact ${escape(d.contractorName)}.</p>`,
        ),
        ...(d.from ? { from: d.from } : {}),
        ...(d.replyTo ? { replyTo: d.replyTo } : {}),
        attachments: [{ key: d.attachment.key, filename: d.attachment.filename, contentType: "application/pdf" }],
      };
    },
  },
  // The daily digest of CIS deadlines still to be met, for those who can act on them. Links are
  // absolute addresses on the tenant's own host.
  "cis.deadline-digest": {
    secretLifetimeMs: null,
    schema: z.object({
      workspaceName: z.string().max(200),
      recipientName: z.string().max(200),
      // True when some item is a return already overdue.
      overdue: z.boolean().optional(),
      deadlines: z
        .array(z.object({ title: z.string().max(200), message: z.string().max(500), link: z.string().url().max(500) }))
        .min(1)
        .max(10),
    }),
    render: (d: { workspaceName: string; recipientName: string; overdue?: boolean; deadlines: { title: string; message: string; link: string }[] }) => ({
      subject: d.overdue ? `CIS returns overdue in ${d.workspaceName}` : `CIS deadlines due soon in ${d.workspaceName}`,
      text: `Hello ${d.recipientName},\n\nThese CIS deadlines in ${d.workspaceName} ${d.overdue ? "have passed or are coming up" : "are coming up"} and still need you:\n\n${d.deadlines
        .map((x) => `- ${x.title}\n  ${x.message}\n  ${x.link}`)
        .join(
          "\n\n",
        )}\n\nYou receive this because your role lets you act on them. The reminders stop once the return is submitted or the statements are issued.`,
      html: layout(
        d.overdue ? "CIS returns overdue" : "CIS deadlines due soon",
        `<p>Hello ${escape(d.recipientName)},</p><p>These CIS deadlines in <strong>${escape(d.workspaceName)}</strong> ${d.overdue ? "have passed or are coming up" : "are coming up"} and still need you:</p><ul>${d.deadlines
          .map((x) => `<li style="margin-bottom:12px"><a href="${escape(x.link)}"><strong>${escape(x.title)}</strong></a><br>${escape(x.message)}</li>`)
          .join(
            "",
          )}</ul><p>You receive this because your role lets you act on them. The reminders stop once the return is submitted or the statements are issued.</p>`,
      ),
    }),
  },
  // A 'Start a project' request from the public site, to the platform's sales address. Replying
  // answers the person who sent it.
  "marketing.project-request": {
    secretLifetimeMs: null,
    schema: z.object({
      name: z.string().max(100),
      email: z.string().email().max(254),
      company: z.string().max(100).nullable(),
      message: z.string().max(2000).nullable(),
      receivedAt: z.string().max(40),
    }),
    render: (d: { name: string; email: string; company: string | null; message: string | null; receivedAt: string }) => {
      const rows: [string, string][] = [
        ["Name", d.name],
        ["E-mail", d.email],
        ["Company", d.company ?? "N/A"],
        ["Received", d.receivedAt],
      ];
      const message = d.message ?? "(no message)";
      return {
        subject: `New project request from ${d.name}${d.company ? ` (${d.company})` : ""}`,
        text: `A project request came in through the public site.\n\n${rows.map(([k, v]) => `${k}: ${v}`).join("\n")}\n\nMessage:\n${message}\n\nReply to this e-mail to answer ${d.name}. We promise a reply within one business day.`,
        html: layout(
          "New project request",
          `<p>A project request came in through the public site.</p><table style="border-collapse:collapse;width:100%">${rows
            .map(
              ([k, v]) =>
                `<tr><th scope="row" style="text-align:left;padding:4px 8px;border-bottom:1px solid #ddd">${escape(k)}</th><td style="padding:4px 8px;border-bottom:1px solid #ddd">${escape(v)}</td></tr>`,
            )
            .join(
              "",
            )}</table><p><strong>Message</strong></p><p>${escape(message).replace(/\n/g, "<br>")}</p><p>Reply to this e-mail to answer ${escape(d.name)}. We promise a reply within one business day.</p>`,
        ),
        replyTo: d.email,
      };
    },
  },
  // An invitation to a workspace: the link sets the first password. Valid for 7 days, once.
  "team.invite": {
    secretLifetimeMs: 7 * 24 * 60 * MINUTE,
    schema: z.object({ workspaceName: z.string().max(200), activationLink: z.string().url().max(4000), expiresIn: z.string().max(50) }),
    render: (d: { workspaceName: string; activationLink: string; expiresIn: string }) => ({
      subject: `You are invited to ${d.workspaceName}`,
      text: `You have been invited to ${d.workspaceName}.\n\nOpen this link to choose your password (it expires in ${d.expiresIn} and can be used once):\n${d.activationLink}\n\nIf the link has expired, ask your administrator to invite you again.`,
      html: layout(
        `You are invited to ${d.workspaceName}`,
        `<p>You have been invited to <strong>${escape(d.workspaceName)}</strong>.</p><p><a href="${escape(d.activationLink)}" style="display:inline-block;background:#00d15a;color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none">Choose your password</a></p><p>The link expires in ${escape(d.expiresIn)} and can be used once. If it has expired, ask your administrator to invite you again.</p>`,
      ),
    }),
  },
  // A password reset link sent by an administrator. Valid for 1 hour, once.
  "team.password-reset": {
    secretLifetimeMs: 60 * MINUTE,
    schema: z.object({ workspaceName: z.string().max(200), resetLink: z.string().url().max(4000), expiresIn: z.string().max(50) }),
    render: (d: { workspaceName: string; resetLink: string; expiresIn: string }) => ({
      subject: `Reset your ${d.workspaceName} password`,
      text: `An administrator of ${d.workspaceName} sent you a link to set a new password.\n\nOpen this link to choose it (it expires in ${d.expiresIn} and can be used once):\n${d.resetLink}\n\nIf you did not expect this, ask your administrator.`,
      html: layout(
        "Reset your password",
        `<p>An administrator of <strong>${escape(d.workspaceName)}</strong> sent you a link to set a new password.</p><p><a href="${escape(d.resetLink)}" style="display:inline-block;background:#00d15a;color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none">Choose a new password</a></p><p>The link expires in ${escape(d.expiresIn)} and can be used once. If you did not expect this, ask your administrator.</p>`,
      ),
    }),
  },
  "platform.notice": {
    secretLifetimeMs: null,
    schema: z.object({ subject: z.string().max(200), message: z.string().max(5000) }),
    render: (d: { subject: string; message: string }) => ({
      subject: d.subject,
      text: d.message,
      html: layout(
        d.subject,
        d.message
          .split(/\n{2,}/)
          .map((p) => `<p>${escape(p).replace(/\n/g, "<br>")}</p>`)
          .join(""),
      ),
    }),
  },
} as const;

export type TemplateName = keyof typeof TEMPLATES;
export type TemplateData<T extends TemplateName> = Parameters<(typeof TEMPLATES)[T]["render"]>[0];
/** A file in R2 to attach, fetched at delivery; the key must lie under the sending tenant's prefix. */
export type EmailAttachmentRef = { key: string; filename: string; contentType: string };
/** `from` and `replyTo` replace the platform sender and add a Reply-To when a template sets them. */
export type RenderedEmail = { subject: string; text: string; html: string; from?: string; replyTo?: string; attachments?: EmailAttachmentRef[] };

/** Templates whose outbox data holds a secret, with the secret's lifetime. */
export const SENSITIVE_TEMPLATES: readonly { name: TemplateName; secretLifetimeMs: number }[] = Object.entries(TEMPLATES).flatMap(([name, t]) =>
  t.secretLifetimeMs === null || !isTemplateName(name) ? [] : [{ name, secretLifetimeMs: t.secretLifetimeMs }],
);

export function isTemplateName(name: string): name is TemplateName {
  return Object.hasOwn(TEMPLATES, name);
}

export function renderTemplate(name: string, data: unknown): RenderedEmail {
  if (!isTemplateName(name)) throw new Error(`Unknown e-mail template ${name}`);
  const t = TEMPLATES[name];
  const parsed = t.schema.parse(data);
  return (t.render as (d: typeof parsed) => RenderedEmail)(parsed);
}
