import { redirect } from "react-router";
import { requireFiles } from "../module.server";
import type { Route } from "./+types/index";

/** The module's entry in the navigation opens the overview. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireFiles(request, context);
  return redirect("/files/overview");
}
