import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import { cloudflareContext } from "~/context";
import { reportInternalError } from "~/features/platform";
import { ProjectRequestForm, type ProjectRequestActionData } from "../components/project-form";
import { ContentPage, PublicLayout } from "../components/public-layout";
import { publicPageHeaders } from "../headers";
import { submitProjectRequest } from "../project-requests.server";
import { publicPageData, requirePublicSite } from "../public-site.server";
import { COULD_NOT_SEND, PROJECT_REQUEST_THANKS, rateLimitedMessage } from "../messages";
import { projectRequestSchema } from "../schemas";
import type { Route } from "./+types/start-a-project";

export function loader({ request, context }: Route.LoaderArgs) {
  return publicPageData(request, context);
}

// A form's answer is one person's: never kept by a cache.
const NO_STORE = { "Cache-Control": "no-store" };

export async function action({ request, context }: Route.ActionArgs) {
  requirePublicSite(context);
  const { env } = context.get(cloudflareContext);
  const submission = parseWithZod(await request.formData(), { schema: projectRequestSchema });
  if (submission.status !== "success") {
    return data<ProjectRequestActionData>({ status: "error", result: submission.reply() }, { status: 400, headers: NO_STORE });
  }
  const { website, ...fields } = submission.value;
  const result = await submitProjectRequest(env, request, { ...fields, honeypot: Boolean(website) });
  if (result.ok) return data<ProjectRequestActionData>({ status: "sent" }, { headers: NO_STORE });
  if (result.code === "rate_limited") {
    return data<ProjectRequestActionData>(
      { status: "error", result: submission.reply({ formErrors: [rateLimitedMessage(result.waitMs)] }) },
      { status: 429, headers: NO_STORE },
    );
  }
  reportInternalError(context, result.error, "project request");
  return data<ProjectRequestActionData>({ status: "error", result: submission.reply({ formErrors: [COULD_NOT_SEND] }) }, { status: 503, headers: NO_STORE });
}

export const headers = publicPageHeaders;

export default function StartAProject({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <PublicLayout contactEmail={loaderData.contactEmail}>
      <ContentPage
        title="Start a project"
        lead="Tell us a little about your business and what you need. Someone who knows construction will reply within one business day."
      >
        {actionData?.status === "sent" ? (
          <div>
            <p role="status" className="rounded-brand border border-success bg-success/10 p-4">
              {PROJECT_REQUEST_THANKS}
            </p>
            <p>
              <a href="/" className="underline">
                Back to the home page
              </a>
            </p>
          </div>
        ) : (
          <ProjectRequestForm id="project-request" lastResult={actionData?.status === "error" ? actionData.result : undefined} />
        )}
      </ContentPage>
    </PublicLayout>
  );
}

export function meta() {
  return [
    { title: "Start a project | Workspace" },
    { name: "description", content: "Ask us about modular business apps or bespoke work for your construction business. We reply within one business day." },
  ];
}
