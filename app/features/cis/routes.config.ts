import { type RouteConfigEntry, index, layout, prefix, route } from "@react-router/dev/routes";

/** CIS, under /cis, plus the fake HMRC Transaction Engine (development only). Assembled by app/routes.ts. */
export const cisRoutes: RouteConfigEntry[] = [
  route("dev/hmrc", "features/cis/hmrc/routes/dev-hmrc.tsx"),
  route("dev/hmrc/submission", "features/cis/hmrc/routes/dev-hmrc-endpoint.tsx", { id: "dev-hmrc-submission" }),
  route("dev/hmrc/poll", "features/cis/hmrc/routes/dev-hmrc-endpoint.tsx", { id: "dev-hmrc-poll" }),
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
];
