import { ContentPage, PublicLayout } from "../components/public-layout";
import { publicPageHeaders } from "../headers";
import { publicPageData } from "../public-site.server";
import type { Route } from "./+types/vision";

export function loader({ request, context }: Route.LoaderArgs) {
  return publicPageData(request, context);
}

export const headers = publicPageHeaders;

export default function Vision({ loaderData }: Route.ComponentProps) {
  return (
    <PublicLayout contactEmail={loaderData.contactEmail}>
      <ContentPage
        title="Our vision"
        lead="Construction firms should spend their evenings with their families, not with spreadsheets, HMRC envelopes and a shared drive nobody can find anything in."
      >
        <section>
          <h2>Software shaped like a contractor&apos;s week</h2>
          <p>
            A contractor&apos;s office runs on a monthly rhythm: invoices in, deductions worked out, subcontractors paid, statements out by the 19th and the
            CIS300 return filed before the deadline. Around that rhythm sit the drawings, the signed variations, the site diary and the phone calls that never
            got written down. We build one workspace where all of it lives, so the rhythm keeps time on its own.
          </p>
        </section>
        <section>
          <h2>Modules, not a monolith</h2>
          <p>
            No two firms work the same way, so nobody should pay for a suite they half use. Every part of the workspace is a module: CIS, and files with
            e-signature. You switch on what you need, you are billed per module, and you switch modules off as easily as you turned them on.
          </p>
        </section>
        <section>
          <h2>Bespoke, as a service</h2>
          <p>
            When the catalogue does not have what you need, we build it with you, as a module in your own workspace. We run it, keep it up to date and fix it
            when HMRC changes the rules, for a monthly fee. You get software made for you without a project to manage or a server to look after.
          </p>
        </section>
        <section>
          <h2>Your data stays yours</h2>
          <p>
            Each organisation works in its own workspace at its own address. Tax identifiers such as UTRs and National Insurance numbers are encrypted before
            they are stored. You can export everything as JSON or as a PostgreSQL export at any time, and when you leave we close your workspace within 24 hours
            of your export.
          </p>
        </section>
        <section>
          <h2>Where we are going</h2>
          <ul>
            <li>Returns and statements that prepare themselves, with people only checking and approving.</li>
            <li>Subcontractors who upload, sign and get paid from their phone, without a single e-mail attachment.</li>
            <li>A workspace that explains itself in plain English, so a new starter is useful on day one.</li>
          </ul>
        </section>
      </ContentPage>
    </PublicLayout>
  );
}

export function meta() {
  return [
    { title: "Our vision | Workspace" },
    {
      name: "description",
      content: "Why we build modular business apps for UK construction contractors: CIS that runs to time, billing per module and bespoke work as a service.",
    },
  ];
}
