import { z } from "zod";
import type { Clock } from "../../core/clock.js";
import type { FawnConfig } from "../../core/config/schema.js";
import type { FawnPaths } from "../../core/paths.js";
import type { LeadRunOptions } from "../lead-agent/run-options.js";
import type { ExternalizeSeams } from "../tools/output-budget/externalize-tool-output.js";
import {
  parseToolOutputConfig,
  type ToolOutputConfig,
} from "../tools/output-budget/tool-output-config.js";
import { createClarificationMiddleware } from "./clarification/clarification-middleware.js";
import { parseConfigSection } from "./config-section.js";
import { createDanglingToolCallMiddleware } from "./dangling-tool-calls/dangling-tool-call-middleware.js";
import { type GuardrailSettings, parseGuardrails } from "./guardrails/guardrail-config.js";
import { createGuardrailMiddleware } from "./guardrails/guardrail-middleware.js";
import {
  type LoopDetectionConfig,
  parseLoopDetectionConfig,
} from "./loop-detection/loop-detection-config.js";
import { createLoopDetectionMiddleware } from "./loop-detection/loop-detection-middleware.js";
import {
  createModelRetryMiddleware,
  type ModelRetryOptions,
} from "./model-retry/model-retry-middleware.js";
import { type CurrentFileHash, hostFileHash } from "./read-before-write/current-file-hash.js";
import {
  parseReadBeforeWriteConfig,
  type ReadBeforeWriteConfig,
} from "./read-before-write/read-before-write-config.js";
import { createReadBeforeWriteMiddleware } from "./read-before-write/read-before-write-middleware.js";
import {
  defaultDetectors,
  detectorsFor,
  type SafetyDetector,
} from "./safety-finish-reason/safety-detectors.js";
import { parseSafetyFinishReasonConfig } from "./safety-finish-reason/safety-finish-reason-config.js";
import { createSafetyFinishReasonMiddleware } from "./safety-finish-reason/safety-finish-reason-middleware.js";
import { createInputSanitizationMiddleware } from "./sanitization/input-sanitization-middleware.js";
import {
  parseSanitizationConfig,
  type SanitizationConfig,
} from "./sanitization/sanitization-config.js";
import { createToolResultSanitizationMiddleware } from "./sanitization/tool-result-sanitization-middleware.js";
import { createSubagentLimitMiddleware } from "./subagent-limit/subagent-limit-middleware.js";
import {
  parseSummarizationConfig,
  type SummarizationConfig,
} from "./summarization/summarization-config.js";
import { createSummarizationMiddleware } from "./summarization/summarization-middleware.js";
import { createThreadDataMiddleware } from "./thread-data/thread-data-middleware.js";
import { parseTitleConfig, type TitleConfig } from "./title/title-config.js";
import { createTitleMiddleware } from "./title/title-middleware.js";
import { createTodoMiddleware } from "./todos/todo-middleware.js";
import {
  parseTokenBudgetConfig,
  type TokenBudgetConfig,
} from "./token-budget/token-budget-config.js";
import { createTokenBudgetMiddleware } from "./token-budget/token-budget-middleware.js";
import { createToolErrorMiddleware } from "./tool-errors/tool-error-middleware.js";
import { createToolOutputBudgetMiddleware } from "./tool-output-budget/tool-output-budget-middleware.js";
import type { AgentMiddleware } from "./types.js";
import { createUploadsMiddleware } from "./uploads/uploads-middleware.js";
import { createViewImageMiddleware } from "./view-image/view-image-middleware.js";

/** The config.yaml sections the lead agent's middlewares read, parsed once at startup. */
export interface LeadMiddlewareSettings {
  toolOutput: ToolOutputConfig;
  loopDetection: LoopDetectionConfig;
  title: TitleConfig;
  summarization: SummarizationConfig;
  maxTotalSubagents: number;
  sanitization: SanitizationConfig;
  tokenBudget: TokenBudgetConfig;
  readBeforeWrite: ReadBeforeWriteConfig;
  /** `safety_finish_reason`: the detectors to run, or null when it is off. */
  safetyDetectors: readonly SafetyDetector[] | null;
  /** `guardrails`: the tool-call guard, or null when it is off. */
  guardrails: GuardrailSettings | null;
}

export type MiddlewareConfigSections = Partial<
  Pick<FawnConfig, "tool_output" | "loop_detection" | "title" | "summarization" | "subagents">
> & {
  // Typed by the config schema; read raw here, since parsing again fills the defaults.
  sanitization?: unknown;
  token_budget?: unknown;
  read_before_write?: unknown;
  safety_finish_reason?: unknown;
  guardrails?: unknown;
};

const subagentsSectionSchema = z.object({
  max_total_per_run: z.number().int().min(1).max(50).default(6),
});

/** Validates the sections (defaults fill the gaps); a bad value fails at startup, by key. */
export function parseLeadMiddlewareSettings(
  config: MiddlewareConfigSections,
): LeadMiddlewareSettings {
  return {
    toolOutput: parseToolOutputConfig(config.tool_output),
    loopDetection: parseLoopDetectionConfig(config.loop_detection),
    title: parseTitleConfig(config.title),
    summarization: parseSummarizationConfig(config.summarization),
    maxTotalSubagents: parseConfigSection(subagentsSectionSchema, config.subagents, "subagents")
      .max_total_per_run,
    sanitization: parseSanitizationConfig(config.sanitization),
    tokenBudget: parseTokenBudgetConfig(config.token_budget),
    readBeforeWrite: parseReadBeforeWriteConfig(config.read_before_write),
    safetyDetectors: safetyDetectorsOf(config.safety_finish_reason),
    guardrails: parseGuardrails(config.guardrails),
  };
}

function safetyDetectorsOf(raw: unknown): readonly SafetyDetector[] | null {
  const config = parseSafetyFinishReasonConfig(raw);
  if (!config.enabled) return null;
  return config.detectors ? detectorsFor(config.detectors) : defaultDetectors();
}

export interface LeadMiddlewareOptions {
  settings: LeadMiddlewareSettings;
  paths: FawnPaths;
  run: Pick<
    LeadRunOptions,
    | "planMode"
    | "subagentEnabled"
    | "maxConcurrentSubagents"
    | "maxTotalSubagents"
    | "nonInteractive"
  >;
  /** The run's model accepts images (`supports_vision`). */
  supportsVision?: boolean;
  /** The run's model context window, for `fraction` summarization triggers. */
  contextWindow?: number | undefined;
  modelRetry?: ModelRetryOptions;
  externalizeSeams?: ExternalizeSeams;
  clock?: Clock;
  /** Built per run by agent/skills (needs the user's enabled skills): view sync, slash activation. */
  skills?: AgentMiddleware | null;
  /** Built with `skills`: scopes tools to the active skills' `allowed-tools`. */
  skillToolPolicy?: AgentMiddleware | null;
  /** Built by agent/memory when `memory.enabled`: queues the conversation after the run. */
  memory?: AgentMiddleware | null;
  /** Plugins' model hooks (`plugin-middleware/`), already ordered; outer of model retry. */
  plugins?: readonly AgentMiddleware[];
  /** How `read_before_write` sees a file's current version (default: the thread's host folders). */
  fileHash?: CurrentFileHash;
}

/**
 * The lead agent's middleware chain in the reference order, keeping its
 * invariants: the output budget outermost among tool wrappers, thread data before uploads,
 * clarification last (innermost tool wrapper). Optional middlewares join only when their
 * feature is on for this run.
 */
export function buildLeadMiddlewares(options: LeadMiddlewareOptions): AgentMiddleware[] {
  const { settings, run } = options;
  const chain: Array<AgentMiddleware | false> = [
    // Outermost model wrapper: every inner middleware sees the sanitized user message.
    settings.sanitization.input && createInputSanitizationMiddleware(),
    createToolOutputBudgetMiddleware({
      config: settings.toolOutput,
      ...(options.externalizeSeams ? { seams: options.externalizeSeams } : {}),
    }),
    // Inside the budget, so what gets trimmed or externalized is already neutralized.
    settings.sanitization.tool_results &&
      createToolResultSanitizationMiddleware({ tools: settings.sanitization.remote_content_tools }),
    createThreadDataMiddleware({
      paths: options.paths,
      ...(options.clock ? { clock: options.clock } : {}),
    }),
    createUploadsMiddleware({ paths: options.paths }),
    createDanglingToolCallMiddleware(),
    // Once per logical model call (a retry does not re-run them), over the repaired history.
    ...(options.plugins ?? []),
    createModelRetryMiddleware(options.modelRetry),
    // Outer of the write gate: an already-denied tool needs no file inspection.
    settings.guardrails !== null && createGuardrailMiddleware(settings.guardrails),
    settings.readBeforeWrite.enabled &&
      createReadBeforeWriteMiddleware({
        fileHash: options.fileHash ?? hostFileHash(options.paths),
      }),
    createToolErrorMiddleware(),
    options.skills ?? false,
    options.skillToolPolicy ?? false,
    settings.summarization.enabled &&
      createSummarizationMiddleware({
        config: settings.summarization,
        contextWindow: options.contextWindow,
      }),
    run.planMode && createTodoMiddleware(),
    settings.title.enabled && createTitleMiddleware(settings.title),
    options.memory ?? false,
    options.supportsVision === true && createViewImageMiddleware({ paths: options.paths }),
    run.subagentEnabled &&
      createSubagentLimitMiddleware({
        ...(run.maxConcurrentSubagents !== undefined
          ? { maxConcurrent: run.maxConcurrentSubagents }
          : {}),
        maxTotal: run.maxTotalSubagents ?? settings.maxTotalSubagents,
      }),
    settings.loopDetection.enabled && createLoopDetectionMiddleware(settings.loopDetection),
    settings.tokenBudget.enabled && createTokenBudgetMiddleware(settings.tokenBudget),
    // After loop detection and the budget, so its afterModel sees the raw answer first.
    settings.safetyDetectors !== null &&
      createSafetyFinishReasonMiddleware({ detectors: settings.safetyDetectors }),
    createClarificationMiddleware({ withTool: !run.nonInteractive }),
  ];
  return chain.filter((middleware): middleware is AgentMiddleware => middleware !== false);
}
