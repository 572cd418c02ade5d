import { type ComponentType, type ComponentProps, type MouseEvent, type ReactNode, useEffect, useId, useRef, useState } from "react";
import { Link, useFetcher, useRevalidator } from "react-router";
import type { InviteActionData, InviteLoaderData, InvitePanel } from "./invite-to-portal";
import { inviteHref } from "./invite-links";

type Panel = ComponentType<ComponentProps<typeof InvitePanel>>;

// The invite form (with conform and its fields) is fetched when the dialog is first asked for, not
// with the page: most visits to the subcontractor pages never open it. Pointing at or focusing the
// button starts the fetch early.
let panelModule: Promise<Panel> | undefined;
const loadPanel = () => (panelModule ??= import("./invite-to-portal").then((m) => m.InvitePanel));

/** Starts fetching the invite form's code (pointer or focus on an invite link). */
export function prefetchInvitePanel() {
  void loadPanel().catch(() => undefined);
}

/**
 * The invite dialog of one page: `open(subcontractorId)` (none: the variant that creates the
 * subcontractor first) shows the invite form as a modal dialog that loads and posts to the invite
 * page's loader and action through fetchers; `dialog` is the element to render. A list shares one
 * for all its rows, so a row's invite link is a plain link.
 */
export function useInviteDialog(): { open: (subcontractorId?: string) => void; dialog: ReactNode } {
  const [open, setOpen] = useState(false);
  const [subcontractorId, setSubcontractorId] = useState<string>();
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

  function openDialog(id?: string) {
    const href = inviteHref(id);
    loadPanel().then(
      (p) => setPanel(() => p),
      // The form's code could not be fetched (a new deployment, the network): the page still works.
      () => window.location.assign(href),
    );
    setSubcontractorId(id);
    setRound((r) => r + 1);
    setOpen(true);
    if (id) loader.load(href);
  }

  function closeDialog() {
    dialogRef.current?.close();
  }

  const view: InviteLoaderData | undefined = subcontractorId ? (loader.state === "idle" ? loader.data : undefined) : { mode: "create" };
  const result = submit.data;

  const dialog = open ? (
    <dialog
      ref={dialogRef}
      aria-labelledby={titleId}
      aria-modal="true"
      onClose={() => {
        setOpen(false);
        // Whatever happened inside (a subcontractor created, an invite recorded) shows on the page.
        if (result?.kind === "result") revalidator.revalidate();
      }}
      className="dialog max-w-lg text-left"
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
  ) : null;
  return { open: openDialog, dialog };
}

/**
 * 'Invite to Portal'. Without JavaScript it is a link to the invite page. With JavaScript it
 * opens the same form as a modal dialog (useInviteDialog). Without an id it is the variant that
 * creates the subcontractor first (show it only to users holding cis.portal.invite and
 * cis.sub.write).
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
  const invite = useInviteDialog();
  function onClick(e: MouseEvent<HTMLAnchorElement>) {
    // Let new-tab and new-window clicks go to the page.
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    invite.open(subcontractorId);
  }
  return (
    <>
      <Link
        to={inviteHref(subcontractorId)}
        onClick={onClick}
        onPointerEnter={prefetchInvitePanel}
        onFocus={prefetchInvitePanel}
        className={className}
        aria-haspopup="dialog"
      >
        {label}
      </Link>
      {invite.dialog}
    </>
  );
}
