import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { StructuredToolInterface } from "@langchain/core/tools";
import {
  Command,
  END,
  type LangGraphRunnableConfig,
  START,
  StateGraph,
} from "@langchain/langgraph";
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import type { Logger } from "../../core/logger.js";
import { hasHook, runStateHooks } from "../middlewares/chain.js";
import type { AgentMiddleware } from "../middlewares/types.js";
import { createToolStep } from "./execute-tool-calls.js";
import { createModelStep } from "./model-step.js";
import { AFTER_AGENT_NODE, BEFORE_AGENT_NODE, type StepContext } from "./step-context.js";
import { type ThreadState, ThreadStateAnnotation, type ThreadStateUpdate } from "./thread-state.js";

/** The tag on the lead agent's own model calls; the run journal attributes usage by it. */
export const LEAD_AGENT_TAG = "lead_agent";

export interface LeadAgentOptions {
  model: BaseChatModel;
  tools?: readonly StructuredToolInterface[];
  /** Where thread state is kept between runs; omit for a stateless graph. */
  checkpointer?: BaseCheckpointSaver;
  /** Sent first on every model call; never stored in the thread. */
  systemPrompt?: string;
  /** The compiled graph's name (default `lead_agent`). */
  name?: string;
  /** The middleware chain, in reference order (see middlewares/lead-middlewares.ts). */
  middlewares?: readonly AgentMiddleware[];
  /** Looks up a configured model by name for middlewares' side calls (title, summary). */
  resolveModel?: (name: string) => Promise<BaseChatModel>;
  logger?: Logger;
}

/**
 * The lead agent: a LangGraph state graph looping model → tools → model until the model answers
 * without tool calls. Middlewares run inside those two steps (model hooks and wrappers in the
 * model step, tool wrappers in the tools step); agent-level hooks get their own nodes at the
 * start and end of a turn, only when some middleware has them. Each step routes with
 * `Command(goto)`, so a tool can end the turn (clarification) and a hook can re-run the model.
 */
export function createLeadAgent(options: LeadAgentOptions) {
  const middlewares = options.middlewares ?? [];
  const tools = uniqueByName([
    ...(options.tools ?? []),
    ...middlewares.flatMap((middleware) => middleware.tools ?? []),
  ]);
  const bindTools = (list: readonly StructuredToolInterface[]) =>
    (list.length > 0 && options.model.bindTools
      ? options.model.bindTools([...list])
      : options.model
    ).withConfig({ tags: [LEAD_AGENT_TAG] });
  const withBeforeAgent = hasHook(middlewares, "beforeAgent");
  const withAfterAgent = hasHook(middlewares, "afterAgent");
  const context: StepContext = {
    middlewares,
    model: options.model,
    resolveModel: options.resolveModel,
    logger: options.logger,
    exitNode: withAfterAgent ? AFTER_AGENT_NODE : END,
  };
  const modelStep = createModelStep(
    { callable: bindTools(tools), tools, bindTools, systemPrompt: options.systemPrompt },
    context,
  );
  const exits = [context.exitNode];
  // Hook nodes only when a middleware has such hooks: a bare graph stays model ↔ tools.
  const nodes: GraphNode[] = [
    ["model", modelStep, { ends: ["tools", "model", ...exits] }],
    ["tools", createToolStep(tools, context), { ends: ["model", ...exits] }],
  ];
  if (withBeforeAgent) {
    nodes.push([
      BEFORE_AGENT_NODE,
      agentHookStep("beforeAgent", context, "model"),
      { ends: ["model"] },
    ]);
  }
  if (withAfterAgent) {
    nodes.push([AFTER_AGENT_NODE, agentHookStep("afterAgent", context, END), { ends: [END] }]);
  }
  return new StateGraph(ThreadStateAnnotation)
    .addNode(nodes)
    .addEdge(START, withBeforeAgent ? BEFORE_AGENT_NODE : "model")
    .compile({
      ...(options.checkpointer ? { checkpointer: options.checkpointer } : {}),
      name: options.name ?? "lead_agent",
    });
}

type NodeName = "model" | "tools" | typeof BEFORE_AGENT_NODE | typeof AFTER_AGENT_NODE;
type GraphNode = [
  NodeName,
  (
    state: ThreadState,
    config: LangGraphRunnableConfig,
  ) => Promise<Array<Command | ThreadStateUpdate>>,
  { ends: Array<NodeName | typeof END> },
];

export type LeadAgentGraph = ReturnType<typeof createLeadAgent>;

/** A node running one agent-level hook phase, then going to `next`. */
function agentHookStep(
  hook: "beforeAgent" | "afterAgent",
  context: StepContext,
  next: "model" | typeof END,
) {
  return async (state: ThreadState, config: LangGraphRunnableConfig) => {
    const outcome = await runStateHooks(hook, context.middlewares, state, { ...context, config });
    return [...outcome.updates, new Command({ goto: next })];
  };
}

/** The first tool of each name wins (later duplicates are skipped, as in the reference). */
function uniqueByName(tools: StructuredToolInterface[]): StructuredToolInterface[] {
  const seen = new Set<string>();
  return tools.filter((tool) => {
    if (seen.has(tool.name)) return false;
    seen.add(tool.name);
    return true;
  });
}
