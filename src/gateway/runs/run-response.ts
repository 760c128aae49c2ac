import type { RunInvocation, RunRow } from "../../ports/run-types.js";
import { LEAD_AGENT_ASSISTANT_ID } from "../assistants/assistant-catalog.js";

/** LangGraph's `Run` plus the reference's accounting fields; no lease or evidence internals. */
export function toApiRun(row: RunRow): Record<string, unknown> {
  return {
    run_id: row.run_id,
    thread_id: row.thread_id,
    assistant_id: row.assistant_id ?? LEAD_AGENT_ASSISTANT_ID,
    created_at: row.created_at,
    updated_at: row.updated_at,
    status: row.status,
    metadata: row.metadata,
    kwargs: clientKwargs(row.kwargs),
    multitask_strategy: row.multitask_strategy,
    on_disconnect: row.on_disconnect,
    error: row.error,
    stop_reason: row.stop_reason,
    cancel_reason: row.cancel_action,
    model_name: row.model_name,
    total_input_tokens: row.total_input_tokens,
    total_output_tokens: row.total_output_tokens,
    total_tokens: row.total_tokens,
    llm_call_count: row.llm_call_count,
    lead_agent_tokens: row.lead_agent_tokens,
    subagent_tokens: row.subagent_tokens,
    middleware_tokens: row.middleware_tokens,
    message_count: row.message_count,
  };
}

/** The kwargs a client may see: the host-only fields (origin, artifact receipts, graph) are dropped. */
function clientKwargs(
  kwargs: RunInvocation,
): Omit<RunInvocation, "origin" | "artifact_imports" | "graph_id"> {
  const { origin: _origin, artifact_imports: _imports, graph_id: _graph, ...visible } = kwargs;
  return visible;
}
