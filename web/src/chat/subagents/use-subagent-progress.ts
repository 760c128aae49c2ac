import type { Run } from "@langchain/langgraph-sdk";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { apiJson } from "../../api/http.js";
import {
  applyTaskChunk,
  progressFromEvents,
  type StoredRunEvent,
  type SubagentProgress,
  type SubagentProgressMap,
} from "./subagent-progress.js";

const SUBAGENT_EVENTS = "subagent.start,subagent.step,subagent.end";

function finished(run: Run): boolean {
  return run.status !== "pending" && run.status !== "running";
}

/**
 * Sub-agent progress for the cards: live from the run's `custom` stream (`onCustomEvent`), and
 * from the stored `subagent.*` events of the thread's finished runs (so a reload shows the
 * same cards with their times). A finished run's events never change: each is read once.
 */
export function useSubagentProgress(
  threadId: string | null,
  runs: ReadonlyArray<Run>,
): { progress: SubagentProgressMap; onCustomEvent: (chunk: unknown) => void } {
  const [live, setLive] = useState<SubagentProgressMap>(new Map());
  const [stored, setStored] = useState<ReadonlyMap<string, Map<string, SubagentProgress>>>(
    new Map(),
  );
  const requested = useRef(new Set<string>());

  useEffect(() => {
    void threadId;
    setLive(new Map());
    setStored(new Map());
    requested.current = new Set();
  }, [threadId]);

  useEffect(() => {
    if (!threadId) return;
    for (const run of runs) {
      if (!finished(run) || requested.current.has(run.run_id)) continue;
      requested.current.add(run.run_id);
      const path = `/threads/${encodeURIComponent(threadId)}/runs/${encodeURIComponent(run.run_id)}/events?event_types=${SUBAGENT_EVENTS}&limit=2000`;
      apiJson<StoredRunEvent[]>(path)
        .then((events) => {
          if (events.length === 0) return;
          setStored((previous) => new Map(previous).set(run.run_id, progressFromEvents(events)));
        })
        .catch(() => requested.current.delete(run.run_id));
    }
  }, [threadId, runs]);

  const onCustomEvent = useCallback((chunk: unknown) => {
    setLive((previous) => applyTaskChunk(previous, chunk, Date.now()));
  }, []);

  const progress = useMemo(() => {
    const merged = new Map<string, SubagentProgress>();
    for (const perRun of stored.values()) for (const [id, entry] of perRun) merged.set(id, entry);
    // What this page saw live is the fresher view, except that stored times are the server's.
    for (const [id, entry] of live) {
      const kept = merged.get(id);
      merged.set(id, kept && entry.state !== "running" ? { ...entry, ...timesOf(kept) } : entry);
    }
    return merged;
  }, [live, stored]);
  return { progress, onCustomEvent };
}

function timesOf(entry: SubagentProgress): Partial<SubagentProgress> {
  return {
    ...(entry.startedAt !== null ? { startedAt: entry.startedAt } : {}),
    ...(entry.endedAt !== null ? { endedAt: entry.endedAt } : {}),
  };
}
