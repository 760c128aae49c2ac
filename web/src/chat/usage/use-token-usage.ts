import { useEffect, useState } from "react";
import { apiJson } from "../../api/http.js";

/** `GET /threads/{id}/token-usage` (the fields the gauge shows). */
export interface ThreadTokenUsage {
  thread_id: string;
  total_tokens: number;
  total_input_tokens: number;
  total_output_tokens: number;
  total_runs: number;
  by_caller: { lead_agent: number; subagent: number; middleware: number };
  context_usage: {
    token_count: number;
    max_context_tokens: number | null;
    percentage: number | null;
  } | null;
}

/** How often the gauge is read again while a run goes on (its tokens grow with each model call). */
const LIVE_REFRESH_MS = 5000;

/**
 * The thread's token usage, read again whenever `version` changes (a run started or finished
 * here) and every few seconds while `live`; running runs count with what they used so far.
 * Null until read, or with no thread.
 */
export function useTokenUsage(
  threadId: string | null,
  version: number,
  live: boolean,
): ThreadTokenUsage | null {
  const [usage, setUsage] = useState<ThreadTokenUsage | null>(null);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    if (!live) return;
    const timer = setInterval(() => setTick((value) => value + 1), LIVE_REFRESH_MS);
    return () => clearInterval(timer);
  }, [live]);
  useEffect(() => {
    void version;
    void tick;
    if (!threadId) {
      setUsage(null);
      return;
    }
    let cancelled = false;
    apiJson<ThreadTokenUsage>(
      `/threads/${encodeURIComponent(threadId)}/token-usage?include_active=true`,
    )
      .then((found) => {
        if (!cancelled) setUsage(found);
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, [threadId, version, tick]);
  return usage && usage.thread_id === threadId ? usage : null;
}
