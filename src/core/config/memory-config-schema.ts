import { z } from "zod";

/**
 * `memory:` of config.yaml. Fawn's keys sit at the top of the section; the reference keeps its
 * DeerMem knobs under `backend_config` (chosen by `manager_class`). Both spellings are read: a
 * top-level key wins over the same key in `backend_config`, which wins over the default. The
 * DeerMem keys Fawn has no use for are accepted and named by `memoryBackendNotes`.
 */

/** `manager_class` values Fawn honours: its own memory (the reference's default name) or none. */
export const MEMORY_MANAGERS = ["deermem", "noop"] as const;
export type MemoryManagerName = (typeof MEMORY_MANAGERS)[number];

const DEFAULTS = {
  debounce_seconds: 30,
  max_facts: 100,
  fact_confidence_threshold: 0.7,
  max_injection_tokens: 2000,
} as const;

const debounceSeconds = z.number().min(0);
const maxFacts = z.number().int().min(1).max(10_000);
const confidenceThreshold = z.number().min(0).max(1);
const injectionTokens = z.number().int().min(50);

/**
 * DeerMem keys that have no Fawn meaning, with what to do instead. They are accepted (a
 * reference config must load) and reported once at start-up.
 */
export const IGNORED_BACKEND_KEYS: Readonly<Record<string, string>> = {
  storage_path: "memory lives in the database (database.url), not in files",
  storage_class: "memory lives in the database (database.url)",
  strict_user_scope: "memory is always scoped to the authenticated user",
  manifest_filename: "memory lives in the database (database.url)",
  file_lock_timeout_seconds: "writes are compare-and-set in the database; no file locks",
  retrieval_adapter: "memory_search ranks facts by matching words",
  queue_max_depth: "the update queue keeps at most 1000 waiting conversations",
  model: "set memory.model_name to a configured model's name",
  token_counting: "tokens are estimated at about 4 characters each",
  fact_eviction_policy:
    "eviction always weighs confidence and recency (memory.fact_half_life_days)",
  fact_eviction_shadow_enabled: "not supported",
  eviction_confidence_weight: "eviction weights are fixed (see docs/CONFIG.md)",
  eviction_confirmation_weight: "eviction weights are fixed (see docs/CONFIG.md)",
  eviction_access_weight: "eviction weights are fixed (see docs/CONFIG.md)",
  eviction_confirmation_half_life_days: "set memory.fact_half_life_days",
  eviction_access_half_life_days: "set memory.fact_half_life_days",
  eviction_correction_reserved_fraction: "not supported",
  eviction_correction_reserved_max: "not supported",
  eviction_audit_max_entries: "not supported",
  guaranteed_categories: "not supported",
  guaranteed_token_budget: "not supported",
  staleness_review_enabled: "not supported",
  staleness_age_days: "not supported",
  staleness_min_candidates: "not supported",
  staleness_max_removals_per_cycle: "not supported",
  staleness_protected_categories: "not supported",
  staleness_max_lifetime_multiplier: "not supported",
  staleness_max_extension_days: "not supported",
  consolidation_enabled: "not supported",
  consolidation_min_facts: "not supported",
  consolidation_max_groups_per_cycle: "not supported",
  consolidation_max_sources: "not supported",
  patterns_dir: "correction and reinforcement patterns are built in",
  prompts_dir: "the memory-update prompt is built in; memory.model_name picks its model",
};

const ignored = Object.fromEntries(
  Object.keys(IGNORED_BACKEND_KEYS).map((key) => [key, z.unknown().optional()]),
);

/** The DeerMem `backend_config` block: the keys Fawn honours typed, the others accepted. */
export const memoryBackendConfigSchema = z.strictObject({
  debounce_seconds: debounceSeconds.optional(),
  max_facts: maxFacts.optional(),
  fact_confidence_threshold: confidenceThreshold.optional(),
  max_injection_tokens: injectionTokens.optional(),
  ...ignored,
});
export type MemoryBackendConfig = z.output<typeof memoryBackendConfigSchema>;

export const memoryConfigSchema = z
  .strictObject({
    enabled: z.boolean().default(true),
    /**
     * `middleware`: after each run a background model call updates the memory. `tool`: the agent
     * keeps it itself with `memory_search/add/update/delete`; only summaries are injected.
     */
    mode: z.enum(["middleware", "tool"]).default("middleware"),
    injection_enabled: z.boolean().default(true),
    /** Quiet time per thread before its conversation is turned into memory. */
    debounce_seconds: debounceSeconds.optional(),
    max_facts: maxFacts.optional(),
    /** Budget (≈4 characters a token) of all facts' text together; unset = only `max_facts`. */
    fact_token_budget: z.number().int().min(10).nullish(),
    /** A fact's freshness halves every this many days since it was learned or last changed. */
    fact_half_life_days: z.number().positive().default(90),
    fact_confidence_threshold: confidenceThreshold.optional(),
    /** Budget (≈4 characters a token) for what the next run's prompt gets inside `<memory>`. */
    max_injection_tokens: injectionTokens.optional(),
    /** Model for the update call (default: the run's own model). */
    model_name: z.string().min(1).nullish(),
    /** How long shutdown waits for queued updates. */
    shutdown_flush_timeout_seconds: z.number().min(0).default(30),
    /** The reference's backend selector: `deermem` (Fawn's memory) or `noop` (memory off). */
    manager_class: z
      .string()
      .min(1)
      .default("deermem")
      .refine((name): name is MemoryManagerName => isMemoryManager(name), {
        error: (issue) =>
          `memory.manager_class ${JSON.stringify(issue.input)} is not available in Fawn: use "deermem" (Fawn's memory, kept in the database) or "noop" (no memory). The reference's mem0, honcho and openviking backends are not ported.`,
      }),
    backend_config: memoryBackendConfigSchema.default({}),
  })
  .transform((raw) => {
    const backend = raw.backend_config;
    const manager: MemoryManagerName = isMemoryManager(raw.manager_class)
      ? raw.manager_class
      : "deermem";
    return {
      ...raw,
      // `noop` is the reference's "no memory": nothing stored, nothing injected.
      enabled: raw.enabled && manager !== "noop",
      manager_class: manager,
      debounce_seconds:
        raw.debounce_seconds ?? backend.debounce_seconds ?? DEFAULTS.debounce_seconds,
      max_facts: raw.max_facts ?? backend.max_facts ?? DEFAULTS.max_facts,
      fact_confidence_threshold:
        raw.fact_confidence_threshold ??
        backend.fact_confidence_threshold ??
        DEFAULTS.fact_confidence_threshold,
      max_injection_tokens:
        raw.max_injection_tokens ?? backend.max_injection_tokens ?? DEFAULTS.max_injection_tokens,
    };
  });

export type MemoryConfig = z.output<typeof memoryConfigSchema>;

function isMemoryManager(name: string): name is MemoryManagerName {
  return (MEMORY_MANAGERS as readonly string[]).includes(name);
}

/** One line per `backend_config` key that is accepted but has no effect, with what to do. */
export function memoryBackendNotes(config: MemoryConfig): string[] {
  return Object.keys(config.backend_config)
    .filter((key) => key in IGNORED_BACKEND_KEYS)
    .map((key) => `memory.backend_config.${key} is ignored: ${IGNORED_BACKEND_KEYS[key]}.`);
}
