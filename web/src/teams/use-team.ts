import { useCallback, useEffect, useRef, useState } from "react";
import type { Team } from "./team-types.js";
import { errorText, getTeam } from "./teams-api.js";

/** How often an open team is re-read (`get` with the last revision: cheap when nothing moved). */
export const POLL_MS = 1500;

export interface TeamState {
  team: Team | null;
  error: string | null;
  /** Re-read now (after an action), without waiting for the next poll. */
  refresh: () => void;
}

/**
 * Polls one team while the tab is visible: a hidden tab stops polling and a visible one reads at
 * once and resumes. Only one `get` is in flight at a time.
 */
export function useTeam(teamId: string): TeamState {
  const [team, setTeam] = useState<Team | null>(null);
  const [error, setError] = useState<string | null>(null);
  const pollNow = useRef<() => void>(() => undefined);

  useEffect(() => {
    let revision: string | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let inFlight = false;
    let again = false;
    const abort = new AbortController();
    setTeam(null);
    setError(null);

    const schedule = (): void => {
      clearTimeout(timer);
      if (!document.hidden && !abort.signal.aborted) timer = setTimeout(poll, POLL_MS);
    };
    async function poll(): Promise<void> {
      if (inFlight) {
        again = true;
        return;
      }
      inFlight = true;
      clearTimeout(timer);
      try {
        const answer = await getTeam(teamId, revision, abort.signal);
        if (!("unchanged" in answer)) {
          revision = answer.revision;
          setTeam(answer);
        }
        setError(null);
      } catch (caught) {
        if (abort.signal.aborted) return;
        setError(errorText(caught));
      } finally {
        inFlight = false;
      }
      if (again) {
        again = false;
        void poll();
      } else schedule();
    }
    const onVisibility = (): void => {
      if (document.hidden) clearTimeout(timer);
      else void poll();
    };

    pollNow.current = () => void poll();
    document.addEventListener("visibilitychange", onVisibility);
    void poll();
    return () => {
      abort.abort();
      clearTimeout(timer);
      document.removeEventListener("visibilitychange", onVisibility);
    };
  }, [teamId]);

  const refresh = useCallback(() => pollNow.current(), []);
  return { team, error, refresh };
}
