import type { Json } from "../../core/json/serialize.js";
import { toJson } from "../../core/json/serialize.js";
import { SharedJson } from "../../core/json/shared-json.js";
import type { AgentStreamOptions, StreamingAgent } from "../../ports/agent.js";
import { PartialMessages } from "./partial-messages.js";
import { StreamEventsHandler } from "./stream-events-handler.js";
import { checkpointPayload, debugPayload, publicJson, taskPayload } from "./stream-payloads.js";
import type { StreamPlan } from "./stream-plan.js";

/** How the graph's stream ended: normally, or stopped at an interrupt (static or `interrupt()`). */
export interface StreamOutcome {
  interrupted: boolean;
}

/** Where a run's stream goes: the bridge on the main thread, or the pool's port in a worker. */
export interface RunStreamSink {
  /** Queues one event; events leave in call order. Rejects when it could not be published. */
  publish(event: string, data: Json): Promise<void>;
  /** A root `custom` chunk (sub-agent progress rides it). */
  observeSubagent(data: unknown): void;
  /** Resolves once everything queued so far has left. */
  drained(): Promise<void>;
}

export interface ProduceOptions {
  plan: StreamPlan;
  subgraphs: boolean;
  /** The run's own callbacks (journal, tracing); the stream-events handler is added here. */
  callbacks: unknown[];
  /** The run's cancellation as the loop checks it between chunks. */
  abortSignal: AbortSignal;
}

/**
 * Stream a built agent to `sink`: each requested mode's chunks in the platform's shape (`mode`
 * or `mode|<namespace>` events), LangChain stream events for `events`, and `messages/*` events
 * for the API's `messages` mode. The same loop runs on the main thread and in an execution worker.
 */
export async function produceRunStream(
  agent: StreamingAgent,
  input: unknown,
  options: AgentStreamOptions,
  p: ProduceOptions,
  sink: RunStreamSink,
): Promise<StreamOutcome> {
  const { plan, subgraphs, abortSignal } = p;
  const partial = plan.partialMessages ? new PartialMessages() : null;
  const callbacks = [...p.callbacks];
  if (plan.events || partial) {
    callbacks.push(
      new StreamEventsHandler(async (event) => {
        if (abortSignal.aborted || event.tags.includes("langsmith:hidden")) return;
        // Queued at once, in order: a model may emit its next token before this one is out.
        const sent: Promise<void>[] = [];
        if (plan.events) sent.push(sink.publish("events", publicJson(event)));
        for (const message of partial?.ofStreamEvent(event) ?? []) {
          sent.push(sink.publish(message.event, message.data));
        }
        // A failed publish (a fenced write: a peer owns the run) is raised after the stream.
        await Promise.all(sent).catch(() => undefined);
      }),
    );
  }
  const stream = await agent.stream(input, { ...options, callbacks });
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
      if (root && frame.mode === "custom") sink.observeSubagent(frame.data);
      if (root && frame.mode === "updates" && hasInterrupt(frame.data)) interrupted = true;
      if (plan.published.has(frame.mode)) {
        const event = root ? frame.mode : [frame.mode, ...frame.namespace].join("|");
        await sink.publish(event, payloads.of(frame));
      }
      // After the `values` chunk it comes from, as the platform orders them.
      if (root && frame.mode === "values" && partial) {
        const complete = partial.ofValues(frame.data);
        if (complete) await sink.publish(complete.event, complete.data);
      }
    }
  } finally {
    // The handler's events still queued go out before anything the run publishes next (its
    // `error`, when the graph failed).
    await sink.drained();
  }
  return { interrupted };
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
