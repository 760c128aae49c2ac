import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { END } from "@langchain/langgraph";
import type { Logger } from "../../core/logger.js";
import type { AgentMiddleware } from "../middlewares/types.js";

/** Node names of the lead-agent graph (the hook nodes exist only when a middleware needs them). */
export const BEFORE_AGENT_NODE = "before_agent";
export const AFTER_AGENT_NODE = "after_agent";

/** What the graph's steps share: the middleware chain and the models its hooks may call. */
export interface StepContext {
  middlewares: readonly AgentMiddleware[];
  /** The run's model without tools bound (middlewares' side calls use it). */
  model: BaseChatModel;
  resolveModel?: ((name: string) => Promise<BaseChatModel>) | undefined;
  logger?: Logger | undefined;
  /** Where a finished turn goes: the after-agent hooks, or straight to the end. */
  exitNode: typeof AFTER_AGENT_NODE | typeof END;
}
