import { ContentPage, PublicLayout } from "../components/public-layout";
import { publicPageHeaders } from "../headers";
import { publicPageData } from "../public-site.server";
import type { Route } from "./+types/terms";

export function loader({ request, context }: Route.LoaderArgs) {
  return publicPageData(request, context);
}

export const headers = publicPageHeaders;

// eslint-disable-next-line max-lines-per-function -- static legal text read top to bottom; no logic to split
export default function Terms({ loaderData }: Route.ComponentProps) {
  return (
    <PublicLayout contactEmail={loaderData.contactEmail}>
      <ContentPage
        title="Terms of service"
        lead="The agreement between us and the organisation that subscribes to a workspace. Please read it with your order form, which names your modules and prices."
        updated="24 November 2026"
      >
        <section>
          <h2>1. Who these terms are between</h2>
          <p>
            These terms are between us, the provider of the Workspace service, and the organisation named on the order form (&quot;you&quot;). The people you
            invite to your workspace, and the subcontractors you invite to your portal, use it on your behalf and under your control.
          </p>
        </section>
        <section>
          <h2>2. The service</h2>
          <p>
            We provide a workspace at its own address, with the modules you choose, such as CIS, and files with e-signature. Bespoke modules we build for you
            are part of the service once they are live and are covered by these terms. We may improve the service over time; we will not remove a module you pay
            for without at least 90 days&apos; notice.
          </p>
        </section>
        <section>
          <h2>3. Fees and billing</h2>
          <p>
            Billing is per module. Fees are charged monthly in advance, in pounds sterling, plus VAT. Switching a module on or off takes effect from the next
            billing period. Invoices are due within 30 days; if an invoice is more than 30 days overdue we may suspend the workspace after giving you 14
            days&apos; written notice.
          </p>
        </section>
        <section>
          <h2>4. Your responsibilities</h2>
          <ul>
            <li>Keep sign-in details confidential and remove people who leave your organisation.</li>
            <li>Make sure the information you enter, including subcontractors&apos; tax details, is accurate and that you are allowed to process it.</li>
            <li>Check returns and statements before you file or issue them: you remain responsible to HMRC for your CIS obligations.</li>
            <li>Do not use the service to store unlawful material or to attack it or anyone else.</li>
          </ul>
        </section>
        <section>
          <h2>5. Your data</h2>
          <p>
            Everything you put in your workspace remains yours. We process it only to provide the service, as your processor under UK GDPR, on the terms of our
            data processing agreement and our <a href="/privacy">privacy notice</a>. Data is held in your organisation&apos;s own workspace and is never visible
            to another customer.
          </p>
        </section>
        <section>
          <h2>6. Availability and support</h2>
          <p>
            We aim for the service to be available 99.9% of each month, excluding planned maintenance announced at least 48 hours ahead. We reply to support
            e-mails within one business day.
          </p>
        </section>
        <section>
          <h2>7. Ending the agreement</h2>
          <p>
            Either of us may end the agreement with 30 days&apos; written notice, or at once if the other seriously breaches these terms and does not put it
            right within 14 days. Before the end date you can export all your data as JSON or as a PostgreSQL export. We terminate your workspace within 24
            hours of that export and delete its data from the live service; backups are overwritten within 35 days.
          </p>
        </section>
        <section>
          <h2>8. Liability</h2>
          <p>
            Nothing in these terms limits liability for death or personal injury caused by negligence, for fraud, or for anything else that cannot be limited by
            law. Otherwise, each party&apos;s total liability in any 12 months is limited to the fees paid in those 12 months, and neither party is liable for
            loss of profit or indirect loss. HMRC penalties caused by information you entered or returns you filed remain yours.
          </p>
        </section>
        <section>
          <h2>9. Law</h2>
          <p>These terms are governed by the law of England and Wales, and the courts of England and Wales have exclusive jurisdiction.</p>
          <p>
            Questions about these terms: <a href={`mailto:${loaderData.contactEmail}`}>{loaderData.contactEmail}</a>.
          </p>
        </section>
      </ContentPage>
    </PublicLayout>
  );
}

export function meta() {
  return [
    { title: "Terms of service | Workspace" },
    { name: "description", content: "The terms for subscribing to Workspace: per-module billing, your data under UK GDPR, export and termination, liability." },
  ];
}
