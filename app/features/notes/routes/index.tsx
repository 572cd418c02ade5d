import { redirect } from "react-router";
import { requireModule } from "~/features/auth/index.server";
import type { Route } from "./+types/index";

/** /notes opens the all list; /notes?note={id} (a share notification's link) opens that note; any other path falls back to the all list. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireModule(request, context, { module: "notes" });
  const note = new URL(request.url).searchParams.get("note");
  if (note && /^[\w-]{1,64}$/.test(note)) throw redirect(`/notes/${note}`);
  throw redirect("/notes/all");
}
