import { type ComponentType, type ComponentProps, type MouseEvent, useEffect, useId, useRef, useState } from "react";
import { Link, useFetcher, useRevalidator } from "react-router";
import type { InviteActionData, InviteLoaderData, InvitePanel } from "./invite-to-portal";
import { inviteHref } from "./invite-links";

type Panel = ComponentType<ComponentProps<typeof InvitePanel>>;

// The invite form (with conform and its fields) is fetched when the dialog is first asked for, not
// with the page: most visits to the subcontractor pages never open it. Pointing at or focusing the
// button starts the fetch early.
let panelModule: Promise<Panel> | undefined;
const loadPanel = () => (panelModule ??= import("./invite-to-portal").then((m) => m.InvitePanel));

/**
 * 'Invite to Portal'. Without JavaScript it is a link to the invite page. With JavaScript it
 * opens the same form as a modal dialog that loads and posts to that page's loader and action
 * through fetchers. Without an id it is the variant that creates the subcontractor first
 * (show it only to users holding cis.portal.invite and cis.sub.write).
 */
export function InviteToPortalButton({
  subcontractorId,
  label = "Invite to Portal",
  className = "",
}: {
  subcontractorId?: string;
  label?: string;
  className?: string;
}) {
  const href = inviteHref(subcontractorId);
  const [open, setOpen] = useState(false);
  const [round, setRound] = useState(0);
  const [Panel, setPanel] = useState<Panel | null>(null);
  const dialogRef = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const fetcherKey = `portal-invite:${subcontractorId ?? "new"}:${round}`;
  const loader = useFetcher<InviteLoaderData>();
  const submit = useFetcher<InviteActionData>({ key: fetcherKey });
  const revalidator = useRevalidator();

  useEffect(() => {
    const dialog = dialogRef.current;
    if (open && dialog && !dialog.open) dialog.showModal();
  }, [open]);

  function prefetch() {
    void loadPanel().catch(() => undefined);
  }

  function openDialog(e: MouseEvent<HTMLAnchorElement>) {
    // Let new-tab and new-window clicks go to the page.
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    loadPanel().then(
      (p) => setPanel(() => p),
      // The form's code could not be fetched (a new deployment, the network): the page still works.
      () => window.location.assign(href),
    );
    setRound((r) => r + 1);
    setOpen(true);
    if (subcontractorId) loader.load(href);
  }

  function closeDialog() {
    dialogRef.current?.close();
  }

  const view: InviteLoaderData | undefined = subcontractorId ? (loader.state === "idle" ? loader.data : undefined) : { mode: "create" };
  const result = submit.data;

  return (
    <>
      <Link to={href} onClick={openDialog} onPointerEnter={prefetch} onFocus={prefetch} className={className} aria-haspopup="dialog">
        {label}
      </Link>
      {open ? (
        <dialog
          ref={dialogRef}
          aria-labelledby={titleId}
          aria-modal="true"
          onClose={() => {
            setOpen(false);
            // Whatever happened inside (a subcontractor created, an invite recorded) shows on the page.
            if (result?.kind === "result") revalidator.revalidate();
          }}
          className="m-auto w-full max-w-lg rounded-brand border border-line bg-elevated p-6 text-left text-gray-900 shadow-xl backdrop:bg-black/40 dark:text-gray-100"
        >
          {view && Panel ? (
            <Panel
              key={round}
              view={view}
              actionData={result}
              busy={submit.state !== "idle"}
              titleId={titleId}
              fetcherKey={fetcherKey}
              onCancel={closeDialog}
              onClose={closeDialog}
            />
          ) : (
            <p id={titleId} role="status" aria-live="polite" className="text-sm">
              Loading...
            </p>
          )}
        </dialog>
      ) : null}
    </>
  );
}
