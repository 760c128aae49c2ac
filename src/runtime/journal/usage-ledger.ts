import type { ModelTokenUsage, RunTokenTotals } from "../../ports/run-types.js";
import { emptyTokenTotals } from "../../ports/run-types.js";

export type CallerTags = string;

/** The caller of a callback: the first tag naming the lead agent, a sub-agent or a middleware. */
export function callerOf(tags: readonly string[] | undefined): string {
  for (const tag of tags ?? []) {
    if (tag === "lead_agent" || tag.startsWith("subagent:") || tag.startsWith("middleware:"))
      return tag;
  }
  return "lead_agent";
}

interface UsageMetadataLike {
  input_tokens?: number;
  output_tokens?: number;
  total_tokens?: number;
  input_token_details?: { cache_read?: number };
}

interface MessageLike {
  usage_metadata?: UsageMetadataLike;
  response_metadata?: Record<string, unknown>;
}

export interface RecordedCall {
  usage: UsageMetadataLike | null;
  latencyMs: number | null;
  callIndex: number;
}

/** Token accounting per run: each LLM run id counts once, bucketed by caller and by model. */
export class UsageLedger {
  private readonly totalsSoFar: RunTokenTotals = emptyTokenTotals();
  private readonly counted = new Set<string>();
  private readonly startedAt = new Map<string, number>();
  private callIndex = 0;

  constructor(private readonly enabled: boolean) {}

  startCall(llmRunId: string): void {
    this.callIndex += 1;
    this.startedAt.set(llmRunId, performance.now());
  }

  recordMessage(llmRunId: string, caller: string, message: object): RecordedCall {
    const started = this.startedAt.get(llmRunId);
    const latencyMs = started === undefined ? null : Math.round(performance.now() - started);
    const { usage_metadata: usage, response_metadata: meta } = message as MessageLike;
    if (this.enabled && usage && !this.counted.has(llmRunId)) {
      this.count(llmRunId, caller, usage, meta ?? {});
    }
    return { usage: usage ?? null, latencyMs, callIndex: this.callIndex };
  }

  private count(
    llmRunId: string,
    caller: string,
    usage: UsageMetadataLike,
    meta: Record<string, unknown>,
  ): void {
    const input = usage.input_tokens ?? 0;
    const output = usage.output_tokens ?? 0;
    const total = usage.total_tokens ?? input + output;
    if (total <= 0) return;
    this.counted.add(llmRunId);
    const t = this.totalsSoFar;
    t.total_input_tokens += input;
    t.total_output_tokens += output;
    t.total_tokens += total;
    t.llm_call_count += 1;
    if (caller.startsWith("subagent:")) t.subagent_tokens += total;
    else if (caller.startsWith("middleware:")) t.middleware_tokens += total;
    else t.lead_agent_tokens += total;
    const model = String(meta.model_name ?? meta.model ?? "unknown");
    const bucket: ModelTokenUsage = t.token_usage_by_model[model] ?? {
      input_tokens: 0,
      output_tokens: 0,
      total_tokens: 0,
    };
    bucket.input_tokens += input;
    bucket.output_tokens += output;
    bucket.total_tokens += total;
    const cacheRead = usage.input_token_details?.cache_read ?? 0;
    if (cacheRead > 0) bucket.cache_read_tokens = (bucket.cache_read_tokens ?? 0) + cacheRead;
    t.token_usage_by_model[model] = bucket;
  }

  totals(): RunTokenTotals {
    return structuredClone(this.totalsSoFar);
  }
}
