import type { Client, Run } from "@langchain/langgraph-sdk";
import { useEffect, useState } from "react";

/** How many of a thread's latest runs the chat reads for durations and sub-agent history. */
const RUNS_READ = 50;

/**
 * The thread's latest runs (newest first), read again whenever `version` changes (a run
 * started or finished here). A failed read keeps what was there: the figures are extras.
 */
export function useThreadRuns(client: Client, threadId: string | null, version: number): Run[] {
  const [runs, setRuns] = useState<{ threadId: string; runs: Run[] } | null>(null);
  useEffect(() => {
    void version;
    if (!threadId) return;
    let cancelled = false;
    client.runs
      .list(threadId, { limit: RUNS_READ })
      .then((found) => {
        if (!cancelled) setRuns({ threadId, runs: found });
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, [client, threadId, version]);
  return runs && runs.threadId === threadId ? runs.runs : [];
}
