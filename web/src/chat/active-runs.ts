import type { Client, Run } from "@langchain/langgraph-sdk";
import { useEffect, useRef, useState } from "react";

/** The key under which the SDK's `useStream` keeps the id of a thread's run it streams. */
export function sdkRunKey(threadId: string): string {
  return `lg:stream:${threadId}`;
}

function isActive(run: Run): boolean {
  return run.status === "running" || run.status === "pending";
}

/**
 * Opening a chat whose run is still going (from the sidebar, another tab, or a reload that came
 * before the SDK stored the run id) joins that run's stream, so the answer keeps streaming and
 * Stop works. When the SDK stored the run id, its own `reconnectOnMount` rejoins instead.
 * Only for the thread the view opened with (not one the SDK creates for a new chat).
 */
export function useRejoinActiveRun(
  client: Client,
  initialThreadId: string | null,
  stream: { isLoading: boolean; joinStream: (runId: string) => Promise<void> },
): { lastRunStatus: Run["status"] | null } {
  const [openedThreadId] = useState(initialThreadId);
  const [lastRunStatus, setLastRunStatus] = useState<Run["status"] | null>(null);
  const latest = useRef(stream);
  latest.current = stream;
  useEffect(() => {
    if (!openedThreadId) return;
    const sdkRejoins = window.sessionStorage.getItem(sdkRunKey(openedThreadId)) !== null;
    let cancelled = false;
    client.runs
      .list(openedThreadId, { limit: 10 })
      .then((runs) => {
        if (cancelled) return;
        // Newest first: how the thread's last run ended (for a chat opened after it did).
        setLastRunStatus(runs[0]?.status ?? null);
        const active = runs.find(isActive);
        if (active && !sdkRejoins && !latest.current.isLoading) {
          void latest.current.joinStream(active.run_id);
        }
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, [client, openedThreadId]);
  return { lastRunStatus };
}

/**
 * Cancels the thread's active runs. Stop needs it when the SDK does not know the run id (a run
 * joined rather than started here, or Stop pressed before the run was created): the SDK's
 * `stop()` then only closes the stream and the run would go on.
 */
export async function cancelActiveRuns(client: Client, threadId: string): Promise<void> {
  const runs = await client.runs.list(threadId, { limit: 10 }).catch(() => []);
  await Promise.all(
    runs
      .filter(isActive)
      .map((run) => client.runs.cancel(threadId, run.run_id).catch(() => undefined)),
  );
}
