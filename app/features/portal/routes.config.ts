import { type RouteConfigEntry, index, prefix, route } from "@react-router/dev/routes";

/** Subcontractor portal: its own sessions, nothing of the staff workspace. Assembled by app/routes.ts; paths are relative to app/. */
export const portalRoutes: RouteConfigEntry[] = [
  ...prefix("portal", [
    index("features/portal/routes/home.tsx"),
    route("login", "features/portal/routes/login.tsx"),
    route("auth", "features/portal/routes/auth.tsx"),
    route("logout", "features/portal/routes/logout.tsx"),
    route("statements/:file", "features/portal/routes/statement-pdf.tsx"),
    route("invoices", "features/portal/routes/invoices.tsx"),
    route("invoices/new", "features/portal/routes/invoice-new.tsx"),
    route("invoices/:file", "features/portal/routes/invoice-pdf.tsx"),
    route("signatures/:id", "features/portal/routes/signature.tsx"),
    route("signatures/:id/document", "features/portal/routes/signature-document.tsx"),
  ]),
];
