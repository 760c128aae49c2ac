import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import { isCommand, type StreamMode } from "@langchain/langgraph";
import { isPlainObject } from "../../core/config/env-expansion.js";
import type { AgentStreamOptions, StreamingAgent } from "../../ports/agent.js";
import { EVIDENCE_CONFIG_KEY } from "../middlewares/runtime.js";
import type { LeadAgentGraph } from "./create-lead-agent.js";
import type { ThreadStateUpdate } from "./thread-state.js";

const STREAM_MODES: readonly StreamMode[] = [
  "values",
  "updates",
  "messages",
  "custom",
  "debug",
  "tasks",
  "checkpoints",
  "tools",
];
const DURABILITIES = ["sync", "async", "exit"] as const;

export interface StreamingAgentOptions {
  /** Steps allowed when the run does not ask (LangGraph's own default of 25 is too few). */
  defaultRecursionLimit?: number;
  /** Upper bound for what a run may ask (`max_recursion_limit` in config.yaml). */
  maxRecursionLimit?: number;
}

/**
 * Adapts the compiled lead-agent graph to what the run worker calls: the worker's options are
 * loosely typed (they come from an HTTP request), so each is checked before LangGraph sees it.
 */
export function toStreamingAgent(
  graph: LeadAgentGraph,
  options: StreamingAgentOptions = {},
): StreamingAgent {
  const maxLimit = options.maxRecursionLimit ?? 1000;
  const defaultLimit = Math.min(options.defaultRecursionLimit ?? 100, maxLimit);
  return {
    stream: (input, streamOptions) => {
      const requested = numberOf(streamOptions.recursion_limit ?? streamOptions.recursionLimit);
      return graph.stream(graphInputOf(input), {
        configurable: {
          ...streamOptions.configurable,
          // Middlewares leave their evidence in the run's journal (see middlewares/runtime.ts).
          ...(streamOptions.journal ? { [EVIDENCE_CONFIG_KEY]: streamOptions.journal } : {}),
        },
        callbacks: callbacksOf(streamOptions.callbacks),
        streamMode: streamModesOf(streamOptions.streamMode),
        subgraphs: streamOptions.subgraphs ?? false,
        signal: streamOptions.signal,
        runName: streamOptions.runName,
        recursionLimit: Math.min(requested ?? defaultLimit, maxLimit),
        ...optionalFields(streamOptions),
      });
    },
  };
}

function optionalFields(options: AgentStreamOptions) {
  const tags = Array.isArray(options.tags)
    ? options.tags.filter((tag): tag is string => typeof tag === "string")
    : undefined;
  const durability = DURABILITIES.find((value) => value === options.durability);
  return {
    ...(options.interruptBefore ? { interruptBefore: nodeList(options.interruptBefore) } : {}),
    ...(options.interruptAfter ? { interruptAfter: nodeList(options.interruptAfter) } : {}),
    ...(tags ? { tags } : {}),
    ...(isPlainObject(options.metadata) ? { metadata: options.metadata } : {}),
    ...(isPlainObject(options.context) ? { context: options.context } : {}),
    ...(durability ? { durability } : {}),
  };
}

type NodeName = "model" | "tools";

function nodeList(value: string[] | "*"): NodeName[] | "*" {
  if (value === "*") return "*";
  return value.filter((name): name is NodeName => name === "model" || name === "tools");
}

type GraphInput = Parameters<LeadAgentGraph["stream"]>[0];

/**
 * A run's input: a state update (`{messages: [...]}`; message dicts are coerced by the messages
 * reducer), a LangGraph Command built by the caller (resume/goto), or nothing (continue).
 */
function graphInputOf(input: unknown): GraphInput {
  if (isCommand(input)) return input as GraphInput;
  if (isPlainObject(input)) return input satisfies ThreadStateUpdate;
  return null;
}

/** A single mode stays a single mode: LangGraph then yields bare chunks, not `[mode, chunk]`. */
function streamModesOf(mode: string | string[] | undefined): StreamMode | StreamMode[] {
  if (!Array.isArray(mode)) return isStreamMode(mode) ? mode : "values";
  return mode.filter(isStreamMode);
}

function isStreamMode(mode: string | undefined): mode is StreamMode {
  return STREAM_MODES.some((known) => known === mode);
}

function callbacksOf(callbacks: unknown[] | undefined): BaseCallbackHandler[] {
  return (callbacks ?? []).filter(
    (callback): callback is BaseCallbackHandler => callback instanceof BaseCallbackHandler,
  );
}

function numberOf(value: unknown): number | undefined {
  return typeof value === "number" && Number.isInteger(value) && value > 0 ? value : undefined;
}
