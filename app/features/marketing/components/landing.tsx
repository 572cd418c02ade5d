import type { MouseEvent } from "react";
import { buttonClass } from "~/components/ui/button";
import { FAQ, INDUSTRIES, MODULES, PROCESS_STEPS } from "../content";

/** The body of /: hero, modules, industries, process, about and the FAQ. */
// eslint-disable-next-line max-lines-per-function -- static marketing copy read top to bottom; no logic to split
export function Landing({ contactEmail, onStartProject }: { contactEmail: string; onStartProject?: (event: MouseEvent<HTMLAnchorElement>) => void }) {
  return (
    <div>
      <section className="mx-auto max-w-6xl px-6 pb-16 pt-20">
        <p className="text-sm font-semibold uppercase tracking-wide text-accent-ink">For UK construction contractors</p>
        <h1 className="mt-3 max-w-3xl text-4xl font-bold tracking-tight sm:text-5xl">One workspace for your contracting business, with CIS done right.</h1>
        <p className="mt-6 max-w-2xl text-lg opacity-80">
          Subcontractors, CIS deductions, statements and the monthly return, next to your files and e-signatures. Each organisation gets its own workspace at
          its own address, and you pay only for the modules you switch on.
        </p>
        <div className="mt-8 flex flex-wrap gap-4">
          <a href="/start-a-project" onClick={onStartProject} className={buttonClass("primary")}>
            Start a project
          </a>
          <a href="#process" className={buttonClass("secondary")}>
            How it works
          </a>
        </div>
      </section>

      <section aria-labelledby="modules-title" className="border-y border-line bg-surface py-16">
        <div className="mx-auto max-w-6xl px-6">
          <h2 id="modules-title" className="text-2xl font-bold">
            Modules you switch on as you need them
          </h2>
          <p className="mt-2 max-w-2xl opacity-80">Billing is per module: start with CIS, add files later, and stop paying for anything you switch off.</p>
          <ul className="mt-8 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {MODULES.map((m) => (
              <li key={m.title} className="rounded-brand border border-line bg-elevated p-6">
                <h3 className="text-lg font-semibold">{m.title}</h3>
                <p className="mt-2 text-sm opacity-80">{m.text}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section id="industries" aria-labelledby="industries-title" className="mx-auto max-w-6xl scroll-mt-20 px-6 py-16">
        <h2 id="industries-title" className="text-2xl font-bold">
          Industries
        </h2>
        <p className="mt-2 max-w-2xl opacity-80">Built with contractors who pay subcontractors under the Construction Industry Scheme every month.</p>
        <ul className="mt-8 grid gap-6 sm:grid-cols-2">
          {INDUSTRIES.map((i) => (
            <li key={i.title} className="border-l-4 border-accent pl-4">
              <h3 className="font-semibold">{i.title}</h3>
              <p className="mt-1 text-sm opacity-80">{i.text}</p>
            </li>
          ))}
        </ul>
      </section>

      <section id="process" aria-labelledby="process-title" className="scroll-mt-20 border-y border-line bg-surface py-16">
        <div className="mx-auto max-w-6xl px-6">
          <h2 id="process-title" className="text-2xl font-bold">
            Process
          </h2>
          <ol className="mt-8 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
            {PROCESS_STEPS.map((s, i) => (
              <li key={s.title} className="rounded-brand border border-line bg-elevated p-6">
                <p className="text-sm font-semibold text-accent-ink">Step {i + 1}</p>
                <h3 className="mt-1 font-semibold">{s.title}</h3>
                <p className="mt-2 text-sm opacity-80">{s.text}</p>
              </li>
            ))}
          </ol>
        </div>
      </section>

      <section id="about" aria-labelledby="about-title" className="mx-auto grid max-w-6xl scroll-mt-20 gap-10 px-6 py-16 lg:grid-cols-2">
        <div>
          <h2 id="about-title" className="text-2xl font-bold">
            About us
          </h2>
          <p className="mt-4 opacity-80">
            We are a small UK team of developers and former site and accounts staff. We build modular business apps for construction firms, and we take on
            bespoke work as a service: we build what you need, then run and maintain it inside your workspace for a monthly fee, like any other module.
          </p>
          <p className="mt-4 opacity-80">
            Your data sits in your organisation&apos;s own workspace, tax identifiers are encrypted, and you can take everything with you whenever you choose.
            Read more in{" "}
            <a href="/vision" className="underline">
              our vision
            </a>
            , or write to{" "}
            <a href={`mailto:${contactEmail}`} className="underline">
              {contactEmail}
            </a>
            .
          </p>
        </div>
        <div>
          <h2 className="text-2xl font-bold">Frequently asked questions</h2>
          <div className="mt-4 divide-y divide-line rounded-brand border border-line">
            {FAQ.map((f) => (
              <details key={f.question} className="group p-4">
                <summary className="cursor-pointer font-medium marker:text-accent-ink">{f.question}</summary>
                <p className="mt-2 text-sm opacity-80">{f.answer}</p>
              </details>
            ))}
          </div>
        </div>
      </section>
    </div>
  );
}
