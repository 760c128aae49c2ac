import { BaseCallbackHandler } from "@langchain/core/callbacks/base";

/** Tags that name who is calling a model; the same vocabulary the run journal uses. */
export function callerFromTags(
  tags: readonly string[] | undefined,
  metadata: Record<string, unknown> | undefined,
): string | undefined {
  const fromMetadata = metadata?.caller;
  if (typeof fromMetadata === "string" && fromMetadata !== "") return fromMetadata;
  return tags?.find(
    (tag) => tag === "lead_agent" || tag.startsWith("middleware:") || tag.startsWith("subagent:"),
  );
}

/**
 * A chat model sees only its messages and call options, not the tags of the call. This handler,
 * installed on the model itself and awaited before generation starts, remembers each call's
 * caller by LLM run id so the model can look it up when it answers.
 */
export class CallerTracker extends BaseCallbackHandler {
  name = "fawn_scripted_caller_tracker";
  override awaitHandlers = true;
  private readonly callers = new Map<string, string>();

  override handleChatModelStart(
    _llm: unknown,
    _messages: unknown,
    runId: string,
    _parentRunId?: string,
    _extra?: Record<string, unknown>,
    tags?: string[],
    metadata?: Record<string, unknown>,
  ): void {
    const caller = callerFromTags(tags, metadata);
    if (caller) this.callers.set(runId, caller);
  }

  /** The caller of an LLM run, forgotten once read. */
  take(runId: string | undefined): string | undefined {
    if (runId === undefined) return undefined;
    const caller = this.callers.get(runId);
    this.callers.delete(runId);
    return caller;
  }

  // A call that ends before the model read its caller (e.g. a cache hit) must not leak an entry.
  override handleLLMEnd(_output: unknown, runId: string): void {
    this.callers.delete(runId);
  }

  override handleLLMError(_error: unknown, runId: string): void {
    this.callers.delete(runId);
  }
}
