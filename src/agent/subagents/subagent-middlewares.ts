import { createDanglingToolCallMiddleware } from "../middlewares/dangling-tool-calls/dangling-tool-call-middleware.js";
import { createGuardrailMiddleware } from "../middlewares/guardrails/guardrail-middleware.js";
import type {
  LeadMiddlewareOptions,
  LeadMiddlewareSettings,
} from "../middlewares/lead-middlewares.js";
import { createLoopDetectionMiddleware } from "../middlewares/loop-detection/loop-detection-middleware.js";
import { createModelRetryMiddleware } from "../middlewares/model-retry/model-retry-middleware.js";
import { hostFileHash } from "../middlewares/read-before-write/current-file-hash.js";
import { createReadBeforeWriteMiddleware } from "../middlewares/read-before-write/read-before-write-middleware.js";
import { createSafetyFinishReasonMiddleware } from "../middlewares/safety-finish-reason/safety-finish-reason-middleware.js";
import { createInputSanitizationMiddleware } from "../middlewares/sanitization/input-sanitization-middleware.js";
import { createToolResultSanitizationMiddleware } from "../middlewares/sanitization/tool-result-sanitization-middleware.js";
import { createSummarizationMiddleware } from "../middlewares/summarization/summarization-middleware.js";
import { createThreadDataMiddleware } from "../middlewares/thread-data/thread-data-middleware.js";
import { createToolErrorMiddleware } from "../middlewares/tool-errors/tool-error-middleware.js";
import { createToolOutputBudgetMiddleware } from "../middlewares/tool-output-budget/tool-output-budget-middleware.js";
import type { AgentMiddleware } from "../middlewares/types.js";
import { createViewImageMiddleware } from "../middlewares/view-image/view-image-middleware.js";

export type SubagentMiddlewareOptions = Pick<
  LeadMiddlewareOptions,
  | "paths"
  | "supportsVision"
  | "contextWindow"
  | "modelRetry"
  | "externalizeSeams"
  | "clock"
  | "fileHash"
> & { settings: LeadMiddlewareSettings };

/**
 * A sub-agent's chain (the reference's sub-agent chain): the lead agent's runtime layer without
 * what only makes sense facing the user — no uploads, title, todos, clarification or sub-agent
 * limit (a sub-agent has no `task` tool). Loop detection stays: its forced stop becomes the
 * result's `loop_capped`. The guards stay too: sanitization, read-before-write, safety stops.
 */
export function buildSubagentMiddlewares(options: SubagentMiddlewareOptions): AgentMiddleware[] {
  const { settings } = options;
  const chain: Array<AgentMiddleware | false> = [
    settings.sanitization.input && createInputSanitizationMiddleware(),
    createToolOutputBudgetMiddleware({
      config: settings.toolOutput,
      ...(options.externalizeSeams ? { seams: options.externalizeSeams } : {}),
    }),
    settings.sanitization.tool_results &&
      createToolResultSanitizationMiddleware({ tools: settings.sanitization.remote_content_tools }),
    createThreadDataMiddleware({
      paths: options.paths,
      ...(options.clock ? { clock: options.clock } : {}),
    }),
    createDanglingToolCallMiddleware(),
    createModelRetryMiddleware(options.modelRetry),
    settings.guardrails !== null && createGuardrailMiddleware(settings.guardrails),
    settings.readBeforeWrite.enabled &&
      createReadBeforeWriteMiddleware({
        fileHash: options.fileHash ?? hostFileHash(options.paths),
      }),
    createToolErrorMiddleware(),
    settings.summarization.enabled &&
      createSummarizationMiddleware({
        config: settings.summarization,
        contextWindow: options.contextWindow,
      }),
    options.supportsVision === true && createViewImageMiddleware({ paths: options.paths }),
    settings.loopDetection.enabled && createLoopDetectionMiddleware(settings.loopDetection),
    settings.safetyDetectors !== null &&
      createSafetyFinishReasonMiddleware({ detectors: settings.safetyDetectors }),
  ];
  return chain.filter((middleware): middleware is AgentMiddleware => middleware !== false);
}
