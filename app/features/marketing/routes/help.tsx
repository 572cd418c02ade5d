import { ContentPage, PublicLayout } from "../components/public-layout";
import { publicPageHeaders } from "../headers";
import { publicPageData } from "../public-site.server";
import type { Route } from "./+types/help";

export function loader({ request, context }: Route.LoaderArgs) {
  return publicPageData(request, context);
}

export const headers = publicPageHeaders;

export default function Help({ loaderData }: Route.ComponentProps) {
  const mail = `mailto:${loaderData.contactEmail}`;
  return (
    <PublicLayout contactEmail={loaderData.contactEmail}>
      <ContentPage title="Help" lead="Answers to the questions we hear most, and how to reach a person when they are not enough.">
        <section>
          <h2>Signing in</h2>
          <p>
            Your organisation has its own address, such as <em>yourfirm.</em> followed by our domain. Sign in there with your work e-mail and password, or use{" "}
            <a href="/login">Log in</a> on this site and we will take you to your workspace. If your organisation asks for two-factor sign-in, a six-digit code
            is e-mailed to you; it lasts 10 minutes and works once.
          </p>
          <p>
            Forgotten your password? Ask an administrator in your organisation to send you a reset link. Locked out after too many attempts? Wait 15 minutes and
            try again.
          </p>
        </section>
        <section>
          <h2>Subcontractors</h2>
          <p>
            If a contractor pays you under CIS through us, they can invite you to their subcontractor portal. Open the link in their e-mail, or go to{" "}
            <a href="/portal/login">the subcontractor portal</a>, to see your payment and deduction statements and send invoices. Links in invitations last 15
            minutes and work once; ask the contractor for a new one if yours has expired.
          </p>
        </section>
        <section>
          <h2>CIS questions</h2>
          <ul>
            <li>Deductions are worked out on labour only: materials, and VAT, are never deducted from.</li>
            <li>Rates follow the subcontractor&apos;s verification: gross 0%, net 20% or unverified 30%.</li>
            <li>Statements are due by the 19th after the tax month ends, and the monthly return by the same day.</li>
            <li>A month with no payments can be filed as a nil return from the returns page.</li>
          </ul>
        </section>
        <section>
          <h2>Your data</h2>
          <p>
            Administrators can export the workspace as JSON or as a PostgreSQL export. We keep your data in your own workspace and never share it with other
            customers. Our <a href="/privacy">privacy notice</a> explains what we hold and why, and our <a href="/terms">terms of service</a> what happens when
            you leave.
          </p>
        </section>
        <section>
          <h2>Talk to us</h2>
          <p>
            Write to <a href={mail}>{loaderData.contactEmail}</a> with your organisation&apos;s name and what you were doing when things went wrong. We reply
            within one business day (Monday to Friday, excluding bank holidays in England and Wales).
          </p>
        </section>
      </ContentPage>
    </PublicLayout>
  );
}

export function meta() {
  return [
    { title: "Help | Workspace" },
    { name: "description", content: "Help with signing in, the subcontractor portal, CIS deductions, statements and returns, and exporting your data." },
  ];
}
