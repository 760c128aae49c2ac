import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import { isPlainObject } from "../core/config/env-expansion.js";
import type { AgentStreamOptions } from "./agent.js";

/*
 * The worker's stream options come from an HTTP request, so they are loosely typed. Every
 * `StreamingAgent` over a LangGraph graph (the lead agent, a served custom graph) checks them
 * here, once, before LangGraph sees them.
 */

/** Modes LangGraph.js streams (`tools` included: a graph may ask for it). */
export const LANGGRAPH_STREAM_MODES = [
  "values",
  "updates",
  "messages",
  "custom",
  "debug",
  "tasks",
  "checkpoints",
  "tools",
] as const;
export type LangGraphStreamMode = (typeof LANGGRAPH_STREAM_MODES)[number];

const DURABILITIES = ["sync", "async", "exit"] as const;

export interface RecursionLimits {
  /** Steps allowed when the run does not ask (LangGraph's own default of 25 is too few). */
  defaultRecursionLimit?: number;
  /** Upper bound for what a run may ask (`max_recursion_limit` in config.yaml). */
  maxRecursionLimit?: number;
}

/** The options a compiled graph's `stream` is given, each checked. */
export interface CheckedStreamOptions {
  configurable: Record<string, unknown>;
  callbacks: BaseCallbackHandler[];
  /** A single mode stays single: LangGraph then yields bare chunks, not `[mode, chunk]`. */
  streamMode: LangGraphStreamMode | LangGraphStreamMode[];
  subgraphs: boolean;
  signal?: AbortSignal;
  runName?: string;
  recursionLimit: number;
  interruptBefore?: string[] | "*";
  interruptAfter?: string[] | "*";
  tags?: string[];
  metadata?: Record<string, unknown>;
  context?: Record<string, unknown>;
  durability?: (typeof DURABILITIES)[number];
}

export function checkStreamOptions(
  options: AgentStreamOptions,
  limits: RecursionLimits = {},
): CheckedStreamOptions {
  const maxLimit = limits.maxRecursionLimit ?? 1000;
  const defaultLimit = Math.min(limits.defaultRecursionLimit ?? 100, maxLimit);
  const requested = positiveInteger(options.recursion_limit ?? options.recursionLimit);
  const tags = Array.isArray(options.tags)
    ? options.tags.filter((tag): tag is string => typeof tag === "string")
    : undefined;
  const durability = DURABILITIES.find((value) => value === options.durability);
  const interruptBefore = nodeListOf(options.interruptBefore);
  const interruptAfter = nodeListOf(options.interruptAfter);
  return {
    configurable: isPlainObject(options.configurable) ? { ...options.configurable } : {},
    callbacks: callbacksOf(options.callbacks),
    streamMode: streamModesOf(options.streamMode),
    subgraphs: options.subgraphs === true,
    ...(options.signal instanceof AbortSignal ? { signal: options.signal } : {}),
    ...(typeof options.runName === "string" ? { runName: options.runName } : {}),
    recursionLimit: Math.min(requested ?? defaultLimit, maxLimit),
    ...(interruptBefore ? { interruptBefore } : {}),
    ...(interruptAfter ? { interruptAfter } : {}),
    ...(tags ? { tags } : {}),
    ...(isPlainObject(options.metadata) ? { metadata: options.metadata } : {}),
    ...(isPlainObject(options.context) ? { context: options.context } : {}),
    ...(durability ? { durability } : {}),
  };
}

/** `"*"` or the node names given (anything else dropped); absent when not asked for. */
function nodeListOf(value: unknown): string[] | "*" | undefined {
  if (value === "*") return "*";
  if (!Array.isArray(value)) return undefined;
  return value.filter((name): name is string => typeof name === "string");
}

function streamModesOf(mode: unknown): LangGraphStreamMode | LangGraphStreamMode[] {
  if (!Array.isArray(mode)) return isStreamMode(mode) ? mode : "values";
  return mode.filter(isStreamMode);
}

function isStreamMode(mode: unknown): mode is LangGraphStreamMode {
  return LANGGRAPH_STREAM_MODES.some((known) => known === mode);
}

function callbacksOf(callbacks: unknown): BaseCallbackHandler[] {
  if (!Array.isArray(callbacks)) return [];
  return callbacks.filter(
    (callback): callback is BaseCallbackHandler => callback instanceof BaseCallbackHandler,
  );
}

function positiveInteger(value: unknown): number | undefined {
  return typeof value === "number" && Number.isInteger(value) && value > 0 ? value : undefined;
}
