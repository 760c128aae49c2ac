import type { Json } from "../../core/json/serialize.js";
import { toJson } from "../../core/json/serialize.js";
import { SharedJson } from "../../core/json/shared-json.js";
import { DEFAULT_USER_ID } from "../../core/paths.js";
import type { AgentStreamOptions, StreamingAgent } from "../../ports/agent.js";
import { LEAD_AGENT_GRAPH_ID } from "../../ports/graph-catalog.js";
import type { Finalization } from "./finalizer-stages.js";
import { PartialMessages } from "./partial-messages.js";
import type { RunAgentRequest } from "./run-context.js";
import { StreamEventsHandler, type StreamEventV2 } from "./stream-events-handler.js";
import { checkpointPayload, debugPayload, publicJson, taskPayload } from "./stream-payloads.js";
import { planStream } from "./stream-plan.js";

/** How the graph's stream ended: normally, or stopped at an interrupt (static or `interrupt()`). */
export interface StreamOutcome {
  interrupted: boolean;
}

/**
 * Build the run's graph and stream it to the bridge: each requested mode's chunks in the
 * platform's shape (`mode` or `mode|<namespace>` events), LangChain stream events for `events`,
 * and `messages/*` events for the API's `messages` mode.
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
  const store = request.ctx.storeFor?.(record);
  const agent: StreamingAgent = await request.agentFactory({
    graphId,
    config: { ...baseConfig, configurable, context },
    ...(f.checkpointer ? { checkpointer: f.checkpointer } : {}),
    ...(store ? { store } : {}),
    logger: f.logger,
  });
  // Read once: the record's getter goes through the controller to the signal on every chunk.
  const abortSignal = record.abortSignal;
  const publish = serialPublisher(f);
  const partial = plan.partialMessages ? new PartialMessages() : null;
  const callbacks: unknown[] = journal ? [journal] : [];
  if (f.trace) callbacks.push(...f.trace.callbacks);
  if (plan.events || partial) {
    callbacks.push(
      new StreamEventsHandler(async (event) => {
        if (abortSignal.aborted || event.tags.includes("langsmith:hidden")) return;
        // Queued at once, in order: a model may emit its next token before this one is out.
        const sent: Promise<void>[] = [];
        if (plan.events) sent.push(publish("events", eventJson(event)));
        for (const message of partial?.ofStreamEvent(event) ?? []) {
          sent.push(publish(message.event, message.data));
        }
        // A failed publish (a fenced write: a peer owns the run) is raised after the stream.
        await Promise.all(sent).catch(() => undefined);
      }),
    );
  }
  const options: AgentStreamOptions = {
    ...baseConfig,
    configurable,
    context,
    callbacks,
    journal,
    streamMode: plan.graphModes,
    subgraphs,
    signal,
    // The graph's root run (its stream events, the journal's `run.start`) is named after it.
    runName: typeof baseConfig.run_name === "string" ? baseConfig.run_name : graphId,
  };
  if (request.interruptBefore) options.interruptBefore = request.interruptBefore;
  if (request.interruptAfter) options.interruptAfter = request.interruptAfter;
  const stream = await agent.stream(request.graphInput, options);
  const payloads = new ChunkPayloads();
  // A stream that yields bare chunks (an agent streaming one mode whatever it is asked) streams
  // the one mode requested, else values.
  const bare = plan.published.size === 1 ? ([...plan.published][0] ?? "values") : "values";
  let interrupted = false;
  try {
    for await (const chunk of stream) {
      if (abortSignal.aborted) break;
      const frame = splitChunk(chunk, subgraphs, bare);
      const root = frame.namespace.length === 0;
      if (root && frame.mode === "custom") f.subagents.observe(frame.data);
      if (root && frame.mode === "updates" && hasInterrupt(frame.data)) interrupted = true;
      if (plan.published.has(frame.mode)) {
        const event = root ? frame.mode : [frame.mode, ...frame.namespace].join("|");
        await publish(event, payloads.of(frame));
      }
      // After the `values` chunk it comes from, as the platform orders them.
      if (root && frame.mode === "values" && partial) {
        const complete = partial.ofValues(frame.data);
        if (complete) await publish(complete.event, complete.data);
      }
    }
  } finally {
    // The handler's events still queued go out before anything the run publishes next (its
    // `error`, when the graph failed).
    await publish.drained();
  }
  await publish.settled();
  return { interrupted };
}

type Publish = ((event: string, data: Json) => Promise<void>) & {
  drained(): Promise<void>;
  settled(): Promise<void>;
};

/**
 * Publishes one at a time, in call order: the graph's chunks and the callback handler's events
 * come from two places, and the stream must keep the order they were made in. `settled` waits
 * for the last one and throws the first failure (the handler's callbacks cannot raise it).
 */
function serialPublisher(f: Finalization): Publish {
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

/** A stream event without internal keys; the graph's own chunks are already other events. */
function eventJson(event: StreamEventV2): Json {
  return publicJson(event);
}

/** The JSON each mode's chunk is published as. */
class ChunkPayloads {
  private readonly metadata = new SharedJson();
  private readonly scrubbed = new WeakMap<object, Json>();

  of(frame: StreamFrame): Json {
    const { data } = frame;
    switch (frame.mode) {
      case "debug":
        return debugPayload(data);
      case "checkpoints":
        return checkpointPayload(data);
      case "tasks":
        return taskPayload(data);
      case "messages":
        // `[message, metadata]`: LangGraph pairs every token of a model call with one metadata
        // object, so its events share one conversion of it.
        if (Array.isArray(data) && data.length === 2) {
          return [toJson(data[0]), this.metadataJson(data[1])];
        }
        return toJson(data);
      default:
        return toJson(data);
    }
  }

  private metadataJson(value: unknown): Json {
    const json = this.metadata.convert(value);
    if (typeof json !== "object" || json === null) return json;
    let out = this.scrubbed.get(json);
    if (out === undefined) {
      out = publicJson(json);
      this.scrubbed.set(json, out);
    }
    return out;
  }
}

function hasInterrupt(data: unknown): boolean {
  return typeof data === "object" && data !== null && "__interrupt__" in data;
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

interface StreamFrame {
  mode: string;
  namespace: string[];
  data: unknown;
}

/** `[mode, data]` or, with subgraphs, `[namespace, mode, data]`; anything else is `bare`. */
function splitChunk(chunk: unknown, subgraphs: boolean, bare: string): StreamFrame {
  if (Array.isArray(chunk)) {
    if (subgraphs && chunk.length === 3 && Array.isArray(chunk[0])) {
      return { namespace: chunk[0].map(String), mode: String(chunk[1]), data: chunk[2] };
    }
    if (chunk.length === 2 && typeof chunk[0] === "string")
      return { namespace: [], mode: chunk[0], data: chunk[1] };
  }
  return { namespace: [], mode: bare, data: chunk };
}
