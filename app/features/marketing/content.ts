/** The home page's copy, shared with its tests. Client-safe: no server imports. The frame every
 * public page shares (name, navigation, footer) is in site.ts, so the other pages do not carry this. */

export const MODULES = [
  {
    title: "CIS",
    text: "Subcontractors with their verification status and deduction rate, invoices with the right deduction worked out for you, payment and deduction statements, and the monthly CIS300 return filed with HMRC.",
  },
  {
    title: "Files and e-signature",
    text: "Folders for every job, sharing with the right people, storage that grows with you, and signature requests your subcontractors complete from their phone.",
  },
  {
    title: "Your brand, your address",
    text: "Each organisation works at its own address with its own colours, and subcontractors sign in to their own portal.",
  },
] as const;

export const INDUSTRIES = [
  { title: "Main contractors", text: "Dozens of subcontractors, monthly returns that must reconcile, and statements issued on time, every month." },
  { title: "Groundworks and civils", text: "Gangs that change from job to job, materials-heavy invoices and a paper trail that stands up to an HMRC enquiry." },
  { title: "Building services", text: "Electrical, mechanical and plumbing firms that both pay subcontractors and are paid under CIS themselves." },
  { title: "Fit-out and refurbishment", text: "Short programmes, many trades on site at once, and signed variations that must not go missing." },
] as const;

export const PROCESS_STEPS = [
  { title: "Tell us what you need", text: "A short call about how you work today: which modules you need, how many people, what has to be moved across." },
  {
    title: "We set up your workspace",
    text: "Your own address, your branding, your subcontractors imported from a spreadsheet. Go-live takes 7–10 business days.",
  },
  {
    title: "Your team starts work",
    text: "Staff sign in at your address, subcontractors use their portal, and we stay on hand while the first month's return goes in.",
  },
  { title: "Grow module by module", text: "Switch modules on when you need them, or have us build what the catalogue does not have yet." },
] as const;

/** The FAQ on /: six questions, each answerable without JavaScript. */
export const FAQ = [
  {
    question: "How long does it take to go live?",
    answer:
      "Most customers are live in 7–10 business days. That covers setting up your workspace and branding, importing your subcontractors and a walk-through with the people who will use it.",
  },
  {
    question: "How does billing work?",
    answer:
      "Billing is per module. You pay for the modules your organisation switches on, such as CIS or files, and nothing for the ones you leave off. You can add or remove a module from the next billing period.",
  },
  {
    question: "Can we take our data with us?",
    answer:
      "Yes. Everything in your workspace can be exported as JSON or as a PostgreSQL export, including subcontractors, invoices, statements, returns and files' details, so it stays usable in whatever you move to.",
  },
  {
    question: "What happens if we leave?",
    answer:
      "Ask for your export, check it, and tell us to close the workspace. We terminate the tenant within 24 hours of the export, deleting its data from the live service; backups age out on their normal schedule.",
  },
  {
    question: "How quickly do you answer?",
    answer: "We reply to a contact e-mail within one business day, and usually the same day. A 'Start a project' request is answered in the same time.",
  },
  {
    question: "Can you build something the catalogue does not have?",
    answer:
      "Yes: bespoke work is offered as a service. We build the module with you, run and maintain it inside your workspace, and bill it like any other module, so there is no project to hand over and no server for you to look after.",
  },
] as const;
