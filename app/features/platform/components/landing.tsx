import { Link } from "react-router";
import { buttonClass } from "~/components/ui/button";

const FEATURES = [
  {
    title: "Construction Industry Scheme",
    text: "Subcontractors with verified rates, invoices with the right deduction, payment and deduction statements and the monthly CIS300 return.",
  },
  { title: "Files and e-signature", text: "Folders, sharing and storage quotas per tenant, with signature requests your subcontractors can complete online." },
  { title: "Notes, calendar and chat", text: "Shared notes and folders, a team calendar with visibility rules, and chat with unread counts." },
  { title: "Your brand, your modules", text: "Each organisation works at its own address with its own colours, and pays only for the modules it switches on." },
];

export function Landing() {
  return (
    <div id="top" className="min-h-screen">
      <header className="border-b border-line">
        <nav className="mx-auto flex max-w-6xl items-center justify-between px-6 py-4" aria-label="Main">
          <a href="/" className="text-lg font-bold">
            Workspace
          </a>
          <div className="flex items-center gap-4 text-sm">
            <a href="#industries">Industries</a>
            <a href="#process">Process</a>
            <a href="#about">About</a>
            <Link to="/portal/login">Subcontractor portal</Link>
            <Link to="/login" className={buttonClass("primary")}>
              Log in
            </Link>
          </div>
        </nav>
      </header>
      <main>
        <section className="mx-auto max-w-6xl px-6 py-20">
          <h1 className="max-w-3xl text-4xl font-bold tracking-tight sm:text-5xl">One workspace for your contracting business, with CIS done right.</h1>
          <p className="mt-6 max-w-2xl text-lg opacity-80">
            Modular business apps for UK construction contractors. Every organisation gets its own workspace at its own address; you pay per module.
          </p>
          <div className="mt-8 flex gap-4">
            <Link to="/login" className={buttonClass("primary")}>
              Log in to your workspace
            </Link>
            <a href="#process" className={buttonClass("secondary")}>
              How it works
            </a>
          </div>
        </section>
        <section id="industries" className="bg-surface py-16">
          <div className="mx-auto grid max-w-6xl gap-6 px-6 sm:grid-cols-2">
            {FEATURES.map((f) => (
              <article key={f.title} className="rounded-brand border border-line bg-elevated p-6">
                <h2 className="text-lg font-semibold">{f.title}</h2>
                <p className="mt-2 text-sm opacity-80">{f.text}</p>
              </article>
            ))}
          </div>
        </section>
        <section id="process" className="mx-auto max-w-6xl px-6 py-16">
          <h2 className="text-2xl font-bold">Process</h2>
          <ol className="mt-4 list-decimal space-y-2 pl-6 opacity-80">
            <li>Tell us which modules you need.</li>
            <li>We set up your workspace and branding; go-live takes 7-10 business days.</li>
            <li>Your staff sign in at your own address; your subcontractors use the portal.</li>
          </ol>
        </section>
        <section id="about" className="mx-auto max-w-6xl px-6 pb-20">
          <h2 className="text-2xl font-bold">About</h2>
          <p className="mt-4 max-w-2xl opacity-80">
            We build modular business apps and bespoke software as a service. We reply to e-mail within one business day.
          </p>
        </section>
      </main>
      <footer className="border-t border-line py-8 text-center text-sm opacity-70">© {new Date().getFullYear()} Workspace</footer>
    </div>
  );
}
