import type { ToolRunnableConfig } from "@langchain/core/tools";
import type { Sandbox, SandboxProvider } from "../../../sandbox/index.js";
import { SandboxNotFoundError } from "../../../sandbox/index.js";
import { threadScopeOf } from "../thread-scope.js";

export interface ThreadSandbox {
  sandbox: Sandbox;
  /** Set when the thread state has a `sandbox` channel that does not name this sandbox yet. */
  recordId: string | null;
}

/**
 * The sandbox of the run's (user, thread), acquired through the provider. The
 * identity comes from the run's config, which the worker fills from the admitted run. The id is
 * always resolved by `acquire`, never taken from thread state: a client can write thread state,
 * and a planted id must not open another thread's sandbox. Acquire on a tracked sandbox is an
 * in-memory reuse plus a lease refresh, so doing it per tool call is cheap.
 */
export async function acquireThreadSandbox(
  provider: SandboxProvider,
  config: ToolRunnableConfig,
): Promise<ThreadSandbox> {
  const scope = threadScopeOf(config);
  const options = config.signal ? { signal: config.signal } : {};
  let sandboxId = await provider.acquire(scope.threadId, scope.userId, options);
  let sandbox = provider.get(sandboxId);
  if (!sandbox) {
    // The idle reaper may destroy it between acquire and get: one fresh acquire.
    sandboxId = await provider.acquire(scope.threadId, scope.userId, options);
    sandbox = provider.get(sandboxId);
  }
  if (!sandbox) throw new SandboxNotFoundError(sandboxId);
  const state = taskStateOf(config);
  const recorded = state === null ? undefined : sandboxIdIn(state);
  return { sandbox, recordId: recorded === null ? sandboxId : null };
}

/** The graph state the calling node received (LangGraph keeps it in the task's scratchpad). */
function taskStateOf(config: ToolRunnableConfig): Record<string, unknown> | null {
  const scratchpad: unknown = config.configurable?.__pregel_scratchpad;
  if (!isRecord(scratchpad)) return null;
  const input: unknown = scratchpad.currentTaskInput;
  return isRecord(input) ? input : null;
}

/**
 * undefined: the state has no `sandbox` channel (writing one would fail the step); null: the
 * channel exists and names no sandbox yet; else the recorded id.
 */
function sandboxIdIn(state: Record<string, unknown>): string | null | undefined {
  if (!("sandbox" in state)) return undefined;
  const channel: unknown = state.sandbox;
  if (!isRecord(channel)) return null;
  const id: unknown = channel.sandbox_id;
  return typeof id === "string" && id !== "" ? id : null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
