import { isCommand } from "@langchain/langgraph";
import { isPlainObject } from "../../core/config/env-expansion.js";
import type { StreamingAgent } from "../../ports/agent.js";
import { checkStreamOptions, type RecursionLimits } from "../../ports/agent-stream-options.js";
import { EVIDENCE_CONFIG_KEY } from "../middlewares/runtime.js";
import type { LeadAgentGraph } from "./create-lead-agent.js";
import { directGraphStream } from "./direct-graph-stream.js";
import type { ThreadStateUpdate } from "./thread-state.js";

export type StreamingAgentOptions = RecursionLimits;

/**
 * Adapts the compiled lead-agent graph to what the run worker calls: the worker's options are
 * loosely typed (they come from an HTTP request), so each is checked before LangGraph sees it.
 */
export function toStreamingAgent(
  graph: LeadAgentGraph,
  options: StreamingAgentOptions = {},
): StreamingAgent {
  return {
    stream: (input, streamOptions) => {
      const { interruptBefore, interruptAfter, ...checked } = checkStreamOptions(
        streamOptions,
        options,
      );
      return directGraphStream(graph, graphInputOf(input), {
        ...checked,
        configurable: {
          ...checked.configurable,
          // Middlewares leave their evidence in the run's journal (see middlewares/runtime.ts).
          ...(streamOptions.journal ? { [EVIDENCE_CONFIG_KEY]: streamOptions.journal } : {}),
        },
        // The lead agent's graph has two nodes; a name it does not have is dropped.
        ...(interruptBefore ? { interruptBefore: nodeList(interruptBefore) } : {}),
        ...(interruptAfter ? { interruptAfter: nodeList(interruptAfter) } : {}),
      });
    },
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
