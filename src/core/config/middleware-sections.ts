import { z } from "zod";

/**
 * The config.yaml sections of the agent middlewares that guard a run: the reference's
 * `token_budget`, `read_before_write` and `safety_finish_reason`, and Fawn's `sanitization`.
 * Typed here so a wrong value fails at load naming its key; the middlewares parse them again
 * (idempotent) for their defaults.
 */
const fraction = z.number().min(0).max(1);

/** `token_budget:` in config.yaml: per-run token limits (reference keys and defaults). */
export const tokenBudgetConfigSchema = z
  .strictObject({
    enabled: z.boolean().default(false),
    /** Input + output tokens one run may use. */
    max_tokens: z.number().int().min(1000).default(200_000),
    max_input_tokens: z.number().int().min(1).nullish(),
    max_output_tokens: z.number().int().min(1).nullish(),
    /** At this fraction of a limit the model is told to wrap up (once a run). */
    warn_threshold: fraction.default(0.8),
    /** At this fraction the answer's tool calls are stripped and the run ends (`token_capped`). */
    hard_stop_threshold: fraction.default(1),
  })
  .refine((config) => config.hard_stop_threshold >= config.warn_threshold, {
    message: "hard_stop_threshold must be >= warn_threshold",
    path: ["hard_stop_threshold"],
  });

/** `read_before_write:` in config.yaml (reference key; off unless enabled, as in the reference). */
export const readBeforeWriteConfigSchema = z.strictObject({
  enabled: z.boolean().default(false),
});

/** `safety_finish_reason:` in config.yaml (reference keys). */
export const safetyFinishReasonConfigSchema = z.strictObject({
  enabled: z.boolean().default(true),
  /** Unset: the built-in detectors. A list replaces them (it may not be empty: use enabled). */
  detectors: z
    .array(
      z.strictObject({
        use: z.string().min(1),
        config: z.record(z.string(), z.unknown()).default({}),
      }),
    )
    .min(1, { message: "leave detectors unset for the built-ins, or use enabled: false" })
    .max(50)
    .nullish(),
});

/** The tools whose results are remote, attacker-influenced content (web pages, search snippets). */
export const REMOTE_CONTENT_TOOLS = ["web_fetch", "web_search", "image_search", "web_capture"];

/**
 * `sanitization:` in config.yaml (Fawn's own section; the reference always runs both guards).
 * Tool results are neutralized by default; framing the user's message changes every request, so
 * it is opt-in (docs/DECISIONS.md).
 */
export const sanitizationConfigSchema = z.strictObject({
  /** Neutralize injection tags in the user's latest message and frame it as user input. */
  input: z.boolean().default(false),
  /** Neutralize injection tags in the results of `remote_content_tools`. */
  tool_results: z.boolean().default(true),
  /** Tool names whose results count as remote content (an MCP fetch tool can be added here). */
  remote_content_tools: z.array(z.string().min(1)).max(200).default(REMOTE_CONTENT_TOOLS),
});

/** `guardrails:` in config.yaml: an allow/deny decision before every tool call (reference keys). */
export const guardrailsConfigSchema = z.strictObject({
  enabled: z.boolean().default(false),
  /** A provider failure blocks the call (true) or lets it through with a warning (false). */
  fail_closed: z.boolean().default(true),
  /** Accepted for reference configs (an OAP passport id); the built-in provider does not use it. */
  passport: z.string().nullish(),
  provider: z
    .strictObject({
      use: z.string().min(1),
      config: z.record(z.string(), z.unknown()).default({}),
    })
    .nullish(),
});
