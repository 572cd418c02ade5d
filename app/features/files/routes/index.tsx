import { redirect } from "react-router";
import { requireModule } from "~/features/auth/index.server";
import type { Route } from "./+types/index";

/** The module's entry in the navigation opens the overview. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireModule(request, context, { module: "files" });
  return redirect("/files/overview");
}
