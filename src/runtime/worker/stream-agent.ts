import type { Json } from "../../core/json/serialize.js";
import { DEFAULT_USER_ID } from "../../core/paths.js";
import type { AgentStreamOptions, StreamingAgent } from "../../ports/agent.js";
import { LEAD_AGENT_GRAPH_ID } from "../../ports/graph-catalog.js";
import type { Finalization } from "./finalizer-stages.js";
import { streamRemotely } from "./remote-stream.js";
import type { RunAgentRequest } from "./run-context.js";
import { planStream } from "./stream-plan.js";
import { produceRunStream, type RunStreamSink, type StreamOutcome } from "./stream-producer.js";

export type { StreamOutcome } from "./stream-producer.js";

/**
 * Build the run's graph and stream it to the bridge — here, or in an execution worker when one
 * serves the run's graph (`ctx.execution`).
 */
export async function streamAgent(
  f: Finalization,
  request: RunAgentRequest,
  signal: AbortSignal,
): Promise<StreamOutcome> {
  const { record, journal } = f;
  const baseConfig = request.config ?? {};
  const plan = planStream(request.streamModes ?? ["values"], delegates(baseConfig));
  const subgraphs = request.streamSubgraphs ?? false;
  const graphId = request.graphId ?? LEAD_AGENT_GRAPH_ID;
  const given = objectOrEmpty(baseConfig.configurable);
  // Identity comes from the admitted run, never from the client: the lead agent's tools resolve
  // the user's folders from `user_id`, so nothing else may name it there. Another graph gets the
  // `user_id` admission wrote (the caller's own only where the server has no auth).
  const admittedUser =
    graphId !== LEAD_AGENT_GRAPH_ID && typeof given.user_id === "string" ? given.user_id : null;
  const identity = {
    thread_id: record.threadId,
    run_id: record.runId,
    user_id: admittedUser ?? record.userId ?? DEFAULT_USER_ID,
  };
  const configurable = { ...given, ...identity };
  const context = { ...objectOrEmpty(baseConfig.context), ...identity };
  const config = { ...baseConfig, configurable, context };
  // The graph's root run (its stream events, the journal's `run.start`) is named after it.
  const runName = typeof baseConfig.run_name === "string" ? baseConfig.run_name : graphId;
  if (request.ctx.execution?.runsRemotely(graphId)) {
    return streamRemotely(f, request, { graphId, config, plan, subgraphs, runName }, signal);
  }
  const store = request.ctx.storeFor?.(record);
  const agent: StreamingAgent = await request.agentFactory({
    graphId,
    config,
    ...(f.checkpointer ? { checkpointer: f.checkpointer } : {}),
    ...(store ? { store } : {}),
    logger: f.logger,
  });
  const callbacks: unknown[] = journal ? [journal] : [];
  if (f.trace) callbacks.push(...f.trace.callbacks);
  const options: AgentStreamOptions = {
    ...config,
    journal,
    streamMode: plan.graphModes,
    subgraphs,
    signal,
    runName,
  };
  if (request.interruptBefore) options.interruptBefore = request.interruptBefore;
  if (request.interruptAfter) options.interruptAfter = request.interruptAfter;
  const publish = serialPublisher(f);
  const sink: RunStreamSink = {
    publish,
    observeSubagent: (data) => f.subagents.observe(data),
    drained: () => publish.drained(),
  };
  // Read once: the record's getter goes through the controller to the signal on every chunk.
  const abortSignal = record.abortSignal;
  const outcome = await produceRunStream(
    agent,
    request.graphInput,
    options,
    { plan, subgraphs, callbacks, abortSignal },
    sink,
  );
  await publish.settled();
  return outcome;
}

export type Publish = ((event: string, data: Json) => Promise<void>) & {
  drained(): Promise<void>;
  settled(): Promise<void>;
};

/**
 * Publishes one at a time, in call order: the graph's chunks and the callback handler's events
 * come from two places, and the stream must keep the order they were made in. `settled` waits
 * for the last one and throws the first failure (the handler's callbacks cannot raise it).
 */
export function serialPublisher(f: Finalization): Publish {
  let tail: Promise<void> = Promise.resolve();
  let failure: { error: unknown } | null = null;
  const publish = (event: string, data: Json): Promise<void> => {
    const next = tail.then(() => f.bridge.publish(f.record.runId, event, data, f.fenced));
    tail = next.then(
      () => undefined,
      (error: unknown) => {
        failure ??= { error };
      },
    );
    return next.then(() => undefined);
  };
  const settled = async (): Promise<void> => {
    await tail;
    if (failure) throw failure.error;
  };
  return Object.assign(publish, { drained: () => tail, settled });
}

/** True when the run enables the `task` tool (`subagent_enabled` in configurable or context). */
function delegates(config: Record<string, unknown>): boolean {
  return (
    objectOrEmpty(config.configurable).subagent_enabled === true ||
    objectOrEmpty(config.context).subagent_enabled === true
  );
}

function objectOrEmpty(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}
