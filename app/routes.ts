import { type RouteConfig, index, layout, prefix, route } from "@react-router/dev/routes";

// Config routing lets every feature keep its routes in its own folder.
export default [
  // The public site (bare domain): everything about it lives in app/features/marketing
  index("features/marketing/routes/home.tsx"),
  route("vision", "features/marketing/routes/vision.tsx"),
  route("help", "features/marketing/routes/help.tsx"),
  route("terms", "features/marketing/routes/terms.tsx"),
  route("privacy", "features/marketing/routes/privacy.tsx"),
  route("start-a-project", "features/marketing/routes/start-a-project.tsx"),

  route("welcome", "features/platform/routes/welcome.tsx"),
  route("preferences/theme", "features/platform/routes/theme.tsx"),
  route("dev/mailbox", "features/platform/routes/dev-mailbox.tsx"),
  route("dev/hmrc", "features/cis/hmrc/routes/dev-hmrc.tsx"),
  route("dev/hmrc/submission", "features/cis/hmrc/routes/dev-hmrc-endpoint.tsx", { id: "dev-hmrc-submission" }),
  route("dev/hmrc/poll", "features/cis/hmrc/routes/dev-hmrc-endpoint.tsx", { id: "dev-hmrc-poll" }),
  route("settings/audit", "features/platform/routes/audit-log.tsx"),
  route("notifications", "features/platform/routes/notifications.tsx"),

  // Sign-in and sessions
  route("login", "features/auth/routes/login.tsx"),
  route("login/verify", "features/auth/routes/login-verify.tsx"),
  route("accept-session", "features/auth/routes/accept-session.tsx"),
  route("logout", "features/auth/routes/logout.tsx"),
  route("me/status", "features/auth/routes/me-status.tsx"),

  // Tenant settings (tenant staff) and the platform super-admin console (bare domain)
  route("settings/branding", "features/tenant-settings/routes/branding.tsx"),
  route("settings/modules", "features/tenant-settings/routes/modules.tsx"),
  ...prefix("superadmin", [index("features/superadmin/routes/console.tsx"), route("audit", "features/superadmin/routes/audit.tsx")]),

  // CIS: everything about it lives in app/features/cis
  ...prefix("cis", [
    layout("features/cis/routes/layout.tsx", [
      index("features/cis/routes/dashboard.tsx"),
      route("analytics", "features/cis/routes/analytics.tsx"),
      route("analytics/subcontractors.csv", "features/cis/routes/analytics-export.tsx"),
      route("settings", "features/cis/routes/settings.tsx"),
      route("subcontractors", "features/cis/routes/subcontractors-list.tsx"),
      route("subcontractors/new", "features/cis/routes/subcontractor-form.tsx", { id: "cis-subcontractor-new" }),
      route("subcontractors/export", "features/cis/routes/subcontractors-export.tsx"),
      route("subcontractors/import", "features/cis/routes/subcontractors-import.tsx"),
      route("subcontractors/invite", "features/cis/routes/portal-invite.tsx", { id: "cis-portal-invite-new" }),
      route("subcontractors/:id", "features/cis/routes/subcontractor-detail.tsx"),
      route("subcontractors/:id/edit", "features/cis/routes/subcontractor-form.tsx", { id: "cis-subcontractor-edit" }),
      route("subcontractors/:id/invite", "features/cis/routes/portal-invite.tsx", { id: "cis-portal-invite-existing" }),
      route("invoices", "features/cis/invoices/routes/list.tsx"),
      route("invoices/export", "features/cis/invoices/routes/export.tsx"),
      route("invoices/new", "features/cis/invoices/routes/form.tsx", { id: "cis-invoice-new" }),
      route("invoices/import", "features/cis/invoices/routes/import.tsx"),
      route("invoices/:id/edit", "features/cis/invoices/routes/form.tsx", { id: "cis-invoice-edit" }),
      route("invoices/:id/attachment", "features/cis/invoices/routes/attachment.tsx"),
      route("invoices/:id", "features/cis/invoices/routes/detail.tsx"),
      route("statements", "features/cis/statements/routes/list.tsx"),
      route("statements/:id/download", "features/cis/statements/routes/download.tsx"),
      route("statements/:id/issue", "features/cis/statements/routes/issue.tsx"),
      route("statements/:id/resend", "features/cis/statements/routes/resend.tsx"),
      route("statements/:id/print", "features/cis/statements/routes/print.tsx"),
      route("returns", "features/cis/returns/routes/returns.tsx"),
      route("returns/export", "features/cis/returns/routes/export.tsx"),
      route("returns/:taxMonth/submit", "features/cis/hmrc/routes/return-submit.tsx"),
    ]),
  ]),

  // Files: everything about it lives in app/features/files (/files/signatures is the e-signature issue's)
  ...prefix("files", [
    route("upload/xhr", "features/files/routes/upload-xhr.tsx"),
    route("export", "features/files/routes/export.tsx"),
    route("upload/multipart", "features/files/routes/upload-multipart.tsx"),
    route("upload/multipart/:uploadId", "features/files/routes/upload-multipart-item.tsx"),
    route("file/:id/download", "features/files/routes/file-content.tsx", { id: "files-download" }),
    route("file/:id/content", "features/files/routes/file-content.tsx", { id: "files-content" }),
    // E-signature (app/features/files/signatures): the request form's target and the review document.
    route("signatures/request", "features/files/signatures/routes/request.tsx"),
    route("signatures/:id/document", "features/files/signatures/routes/document.tsx"),
    layout("features/files/routes/layout.tsx", [
      index("features/files/routes/index.tsx"),
      route("overview", "features/files/routes/overview.tsx"),
      route("all", "features/files/routes/all.tsx"),
      route("folders", "features/files/routes/folders.tsx", { id: "files-folders-root" }),
      route("folders/*", "features/files/routes/folders.tsx", { id: "files-folders-path" }),
      route("upload", "features/files/routes/upload.tsx"),
      route("file/:id", "features/files/routes/file.tsx"),
      // E-signature pages, inside the files layout.
      route("signatures", "features/files/signatures/routes/list.tsx"),
      route("signatures/:id", "features/files/signatures/routes/sign.tsx"),
    ]),
  ]),

  // Subcontractor portal: its own sessions, nothing of the staff workspace
  ...prefix("portal", [
    index("features/portal/routes/home.tsx"),
    route("login", "features/portal/routes/login.tsx"),
    route("auth", "features/portal/routes/auth.tsx"),
    route("logout", "features/portal/routes/logout.tsx"),
    route("statements/:file", "features/portal/routes/statement-pdf.tsx"),
    route("invoices", "features/portal/routes/invoices.tsx"),
    route("invoices/new", "features/portal/routes/invoice-new.tsx"),
    route("invoices/:file", "features/portal/routes/invoice-pdf.tsx"),
  ]),

  // Team administration and one's own account: everything lives in app/features/team
  route("settings/users", "features/team/routes/users.tsx"),
  route("account", "features/team/routes/account.tsx"),
  route("activate", "features/team/routes/activate.tsx"),
  route("reset-password", "features/team/routes/reset-password.tsx"),

  route("*", "features/platform/routes/not-found.tsx"),
] satisfies RouteConfig;
