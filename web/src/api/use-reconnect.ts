import { useEffect, useState } from "react";

const POLL_MS = 2000;

/**
 * While `lost` is set (a call found the server unreachable), asks `/health` every two seconds;
 * `back` turns true once it answers, so the page can say so and let the user send again.
 */
export function useReconnect(lost: boolean): { back: boolean } {
  const [back, setBack] = useState(false);
  useEffect(() => {
    setBack(false);
    if (!lost) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const probe = (): void => {
      fetch("/health", { cache: "no-store" })
        .then((response) => {
          // Any answer means the server is up again (503: up, its database is not).
          if (!stopped) setBack(response.status < 500 || response.status === 503);
          if (!stopped && response.status >= 500 && response.status !== 503) schedule();
        })
        .catch(() => {
          if (!stopped) schedule();
        });
    };
    const schedule = (): void => {
      timer = setTimeout(probe, POLL_MS);
    };
    schedule();
    return () => {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [lost]);
  return { back };
}
