import { useEffect } from "react";
import { useRevalidator } from "react-router";

/**
 * Keeps a page current while something it shows runs elsewhere (a queued job, a submission with
 * HMRC). With JavaScript the page's data is revalidated every `seconds`; without it, the page
 * reloads itself through a refresh inside <noscript>, which never fires when scripts run.
 * `token` restarts the wait whenever new data arrives.
 */
export function RefreshWhile({ running, seconds, token }: { running: boolean; seconds: number; token: unknown }) {
  const { revalidate } = useRevalidator();
  useEffect(() => {
    if (!running) return;
    const timer = setTimeout(() => void revalidate(), seconds * 1000);
    return () => clearTimeout(timer);
  }, [running, seconds, token, revalidate]);
  if (!running) return null;
  return (
    <noscript>
      <meta httpEquiv="refresh" content={String(seconds)} />
    </noscript>
  );
}
