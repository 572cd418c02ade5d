import { ContentPage, PublicLayout } from "../components/public-layout";
import { publicPageHeaders } from "../headers";
import { publicPageData } from "../public-site.server";
import type { Route } from "./+types/privacy";

export function loader({ request, context }: Route.LoaderArgs) {
  return publicPageData(request, context);
}

export const headers = publicPageHeaders;

export default function Privacy({ loaderData }: Route.ComponentProps) {
  const mail = <a href={`mailto:${loaderData.contactEmail}`}>{loaderData.contactEmail}</a>;
  return (
    <PublicLayout contactEmail={loaderData.contactEmail}>
      <ContentPage
        title="Privacy notice"
        lead="What personal data the Workspace service holds, why, how it is protected and what you can ask us to do with it, under UK GDPR and the Data Protection Act 2018."
        updated="24 November 2026"
      >
        <section>
          <h2>Who is responsible</h2>
          <p>
            For the data an organisation keeps in its workspace (staff, subcontractors, invoices, returns, files) that organisation is the controller and we are
            its processor: we act only on its instructions. For the data we collect ourselves, such as a &apos;Start a project&apos; request or an e-mail to us,
            we are the controller. Contact us at {mail}.
          </p>
        </section>
        <section>
          <h2>What we hold</h2>
          <ul>
            <li>Account details: name, work e-mail, role, password hash and sign-in history, including IP addresses.</li>
            <li>
              Subcontractor and tax details a contractor enters: names, addresses, Unique Taxpayer References (UTRs), National Insurance numbers, company and
              VAT numbers, verification numbers and payments.
            </li>
            <li>Files and documents your organisation stores, and their signatures.</li>
            <li>Enquiries: the name, e-mail, company and message you send us through this site.</li>
          </ul>
        </section>
        <section>
          <h2>How tax identifiers are protected</h2>
          <p>
            UTRs, National Insurance numbers and Government Gateway credentials are encrypted before they are stored, with keys held apart from the data, and
            are only shown masked unless someone with permission asks to see them. They are sent to HMRC only to verify subcontractors and file returns, as the
            law requires of the contractor.
          </p>
        </section>
        <section>
          <h2>Where data is held</h2>
          <p>
            Each organisation&apos;s data is held in its own workspace and is never visible to another customer. We use Cloudflare to run the service and to
            store data and files; where data is processed outside the UK it is protected by the UK International Data Transfer Addendum or an adequacy decision.
          </p>
        </section>
        <section>
          <h2>Our lawful bases</h2>
          <ul>
            <li>Contract: to provide the workspace your organisation subscribes to.</li>
            <li>Legal obligation: for the CIS records contractors must keep and file.</li>
            <li>Legitimate interests: to keep the service secure (sign-in limits, audit logs) and to answer enquiries.</li>
          </ul>
        </section>
        <section>
          <h2>How long we keep it</h2>
          <p>
            Workspace data is kept while the subscription runs. When an organisation leaves, it can export everything as JSON or as a PostgreSQL export, and we
            terminate the workspace within 24 hours of that export; backups are overwritten within 35 days. Enquiries are kept only as long as we need them to
            answer and follow up. Contractors should keep their own CIS records for at least three years after the tax year they relate to.
          </p>
        </section>
        <section>
          <h2>Your rights</h2>
          <p>
            You may ask for a copy of your data, have it corrected or erased, restrict or object to its use, and take it elsewhere. If your data is in an
            organisation&apos;s workspace, ask that organisation first; we will help it answer. You can also complain to the Information Commissioner&apos;s
            Office at ico.org.uk.
          </p>
        </section>
        <section>
          <h2>Cookies</h2>
          <p>
            We use only the cookies the service needs: one that keeps you signed in, one that remembers your light or dark theme, and a short-lived one that
            carries a confirmation message to the next page. We use no advertising or tracking cookies, so there is nothing to accept.
          </p>
        </section>
      </ContentPage>
    </PublicLayout>
  );
}

export function meta() {
  return [
    { title: "Privacy notice | Workspace" },
    {
      name: "description",
      content: "How Workspace handles personal data and tax identifiers under UK GDPR: what we hold, where, for how long, and your rights.",
    },
  ];
}
