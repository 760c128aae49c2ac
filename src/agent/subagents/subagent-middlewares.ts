import { createDanglingToolCallMiddleware } from "../middlewares/dangling-tool-calls/dangling-tool-call-middleware.js";
import type {
  LeadMiddlewareOptions,
  LeadMiddlewareSettings,
} from "../middlewares/lead-middlewares.js";
import { createLoopDetectionMiddleware } from "../middlewares/loop-detection/loop-detection-middleware.js";
import { createModelRetryMiddleware } from "../middlewares/model-retry/model-retry-middleware.js";
import { createSummarizationMiddleware } from "../middlewares/summarization/summarization-middleware.js";
import { createThreadDataMiddleware } from "../middlewares/thread-data/thread-data-middleware.js";
import { createToolErrorMiddleware } from "../middlewares/tool-errors/tool-error-middleware.js";
import { createToolOutputBudgetMiddleware } from "../middlewares/tool-output-budget/tool-output-budget-middleware.js";
import type { AgentMiddleware } from "../middlewares/types.js";
import { createViewImageMiddleware } from "../middlewares/view-image/view-image-middleware.js";

export type SubagentMiddlewareOptions = Pick<
  LeadMiddlewareOptions,
  "paths" | "supportsVision" | "contextWindow" | "modelRetry" | "externalizeSeams" | "clock"
> & { settings: LeadMiddlewareSettings };

/**
 * A sub-agent's chain (the reference's sub-agent chain): the lead agent's runtime layer without
 * what only makes sense facing the user — no uploads, title, todos, clarification or sub-agent
 * limit (a sub-agent has no `task` tool). Loop detection stays: its forced stop becomes the
 * result's `loop_capped`.
 */
export function buildSubagentMiddlewares(options: SubagentMiddlewareOptions): AgentMiddleware[] {
  const { settings } = options;
  const chain: Array<AgentMiddleware | false> = [
    createToolOutputBudgetMiddleware({
      config: settings.toolOutput,
      ...(options.externalizeSeams ? { seams: options.externalizeSeams } : {}),
    }),
    createThreadDataMiddleware({
      paths: options.paths,
      ...(options.clock ? { clock: options.clock } : {}),
    }),
    createDanglingToolCallMiddleware(),
    createModelRetryMiddleware(options.modelRetry),
    createToolErrorMiddleware(),
    settings.summarization.enabled &&
      createSummarizationMiddleware({
        config: settings.summarization,
        contextWindow: options.contextWindow,
      }),
    options.supportsVision === true && createViewImageMiddleware({ paths: options.paths }),
    settings.loopDetection.enabled && createLoopDetectionMiddleware(settings.loopDetection),
  ];
  return chain.filter((middleware): middleware is AgentMiddleware => middleware !== false);
}
