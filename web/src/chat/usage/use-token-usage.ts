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

/**
 * The thread's token usage, read again whenever `version` changes (a run started or finished
 * here); running runs count with what they used so far. Null until read, or with no thread.
 */
export function useTokenUsage(threadId: string | null, version: number): ThreadTokenUsage | null {
  const [usage, setUsage] = useState<ThreadTokenUsage | null>(null);
  useEffect(() => {
    void version;
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
  }, [threadId, version]);
  return usage && usage.thread_id === threadId ? usage : null;
}
