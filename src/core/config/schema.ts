import { z } from "zod";
import { inputPolishConfigSchema, suggestionsConfigSchema } from "./composer-assist-schema.js";
import { databaseConfigSchema } from "./database-schema.js";
import { logLevelSchema } from "./log-level.js";
import { memoryConfigSchema } from "./memory-config-schema.js";
import { metricsConfigSchema } from "./metrics-schema.js";
import {
  guardrailsConfigSchema,
  readBeforeWriteConfigSchema,
  safetyFinishReasonConfigSchema,
  sanitizationConfigSchema,
  tokenBudgetConfigSchema,
} from "./middleware-sections.js";
import { skillInstallConfigSchema, skillScanConfigSchema } from "./skills-install-schema.js";
import { tracingConfigSchema } from "./tracing-schema.js";

/**
 * The shape of `config.yaml`, following the reference's keys (snake_case, so a key reads the same
 * in the file, in docs and in code). Known sections are strict: an unknown key there is reported
 * as a warning by the loader. Model entries are loose because providers take extra kwargs.
 */

export { type MemoryConfig, memoryConfigSchema } from "./memory-config-schema.js";

const opaqueSection = z.record(z.string(), z.unknown());

export const modelConfigSchema = z.looseObject({
  /** Unique id used in requests; the first entry is the default model. */
  name: z.string().min(1),
  display_name: z.string().optional(),
  description: z.string().optional(),
  /** Provider: a Fawn factory name or a reference class path such as `langchain_openai:ChatOpenAI`. */
  use: z.string().min(1),
  /** The provider's model id. */
  model: z.string().min(1),
  api_key: z.string().optional(),
  base_url: z.string().optional(),
  api_base: z.string().optional(),
  max_tokens: z.number().int().positive().optional(),
  temperature: z.number().min(0).optional(),
  timeout: z.number().positive().optional(),
  request_timeout: z.number().positive().optional(),
  max_retries: z.number().int().min(0).optional(),
  /** Shown in the UI only; never sent to the provider. */
  context_window: z.number().int().positive().optional(),
  supports_thinking: z.boolean().default(false),
  supports_reasoning_effort: z.boolean().default(false),
  supports_vision: z.boolean().default(false),
  when_thinking_enabled: opaqueSection.optional(),
  when_thinking_disabled: opaqueSection.optional(),
  thinking: opaqueSection.optional(),
  pricing: opaqueSection.optional(),
});

export const SANDBOX_KINDS = ["auto", "local", "bwrap", "container"] as const;
export type SandboxKind = (typeof SANDBOX_KINDS)[number];

/** Reference provider class paths, so a reference config.yaml selects the matching Fawn sandbox. */
const REFERENCE_SANDBOX_CLASSES: Record<string, SandboxKind> = {
  "deerflow.sandbox.local:LocalSandboxProvider": "local",
  "deerflow.community.aio_sandbox:AioSandboxProvider": "container",
};

const sandboxKind = z.preprocess(
  (value) => (typeof value === "string" ? (REFERENCE_SANDBOX_CLASSES[value] ?? value) : value),
  z.enum(SANDBOX_KINDS),
);

export const sandboxConfigSchema = z.strictObject({
  /** `auto`: bubblewrap where it works, else the local provider (host bash off unless allowed). */
  use: sandboxKind.default("auto"),
  allow_host_bash: z.boolean().default(false),
  mounts: z
    .array(
      z.strictObject({
        host_path: z.string().min(1),
        container_path: z.string().startsWith("/"),
        read_only: z.boolean().default(false),
      }),
    )
    .default([]),
  bash_output_max_chars: z.number().int().positive().default(20_000),
  read_file_output_max_chars: z.number().int().positive().default(50_000),
  ls_output_max_chars: z.number().int().positive().default(20_000),
  bash_command_timeout: z.number().positive().default(600),
  // Container provider settings; ignored by the other providers.
  image: z.string().optional(),
  port: z.number().int().min(1).max(65_535).optional(),
  container_prefix: z.string().optional(),
  idle_timeout: z.number().min(0).optional(),
  replicas: z.number().int().min(0).optional(),
  environment: z.record(z.string(), z.string()).optional(),
  ownership: opaqueSection.optional(),
});

/** Where skills appear inside every sandbox; the sandboxes mount the thread's skills view there. */
export const SKILLS_CONTAINER_PATH = "/mnt/skills";

export const skillsConfigSchema = z.strictObject({
  /** Host folder holding `public/` (default: the `skills/` folder shipped with Fawn). */
  path: z.string().min(1).nullish(),
  container_path: z
    .literal(SKILLS_CONTAINER_PATH, {
      error: `skills.container_path: only ${SKILLS_CONTAINER_PATH} is supported (sandboxes mount skills there)`,
    })
    .default(SKILLS_CONTAINER_PATH),
  /** List only skill names in the prompt; the agent looks one up with `describe_skill`. */
  deferred_discovery: z.boolean().default(false),
  install: skillInstallConfigSchema.prefault({}),
});

/** Tool names a sub-agent never gets unless its type says otherwise (no nesting, no questions). */
export const DEFAULT_SUBAGENT_DISALLOWED_TOOLS = ["task", "ask_clarification", "present_files"];

/** `subagents.agents.<name>`: overrides of one sub-agent type (built-in or custom). */
const subagentOverrideSchema = z.strictObject({
  timeout_seconds: z.number().positive().optional(),
  max_turns: z.number().int().min(1).optional(),
  model: z.string().min(1).optional(),
  /** Skills the type is told about (of the run's enabled ones); unset = all. */
  skills: z.array(z.string()).nullish(),
  token_budget: opaqueSection.optional(),
});

/** `subagents.custom_agents.<name>`: a sub-agent type defined in config.yaml. */
const customSubagentSchema = z.strictObject({
  description: z.string().min(1),
  system_prompt: z.string().min(1),
  /** Allowed tool names; unset = every tool of the lead agent (minus `disallowed_tools`). */
  tools: z.array(z.string()).nullish(),
  disallowed_tools: z.array(z.string()).nullish().default(DEFAULT_SUBAGENT_DISALLOWED_TOOLS),
  skills: z.array(z.string()).nullish(),
  /** A configured model name, or `inherit` (the lead agent's model for the run). */
  model: z.string().min(1).default("inherit"),
  max_turns: z.number().int().min(1).default(50),
  timeout_seconds: z.number().positive().default(900),
});

/** `subagents:` — the `task` tool's sub-agent types and their limits. */
export const subagentsConfigSchema = z.strictObject({
  /** Wall-clock limit of the built-in types, in seconds (custom types keep their own). */
  timeout_seconds: z.number().positive().default(1800),
  /** Turn limit for the built-in types; unset = their own (general-purpose 150, bash 60). */
  max_turns: z.number().int().min(1).optional(),
  /** `task` calls one lead-agent run may make (the per-run option can lower or raise it). */
  max_total_per_run: z.number().int().min(1).max(50).default(6),
  /** Accepted for reference configs; no per-sub-agent token budget yet. */
  token_budget: opaqueSection.optional(),
  agents: z.record(z.string(), subagentOverrideSchema).default({}),
  custom_agents: z.record(z.string(), customSubagentSchema).default({}),
});

export const AUTH_MODES = ["disabled", "local"] as const;
export type AuthMode = (typeof AUTH_MODES)[number];

/** The reference's older names for two upload limits, still read when the new name is absent. */
const LEGACY_UPLOAD_KEYS: Record<string, string> = {
  max_file_count: "max_files",
  max_single_file_size: "max_file_size",
};

/** `uploads:` — limits of `POST /threads/{id}/uploads` (reference defaults). */
export const uploadsConfigSchema = z.preprocess(
  (value) => {
    if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
    const out: Record<string, unknown> = { ...value };
    for (const [legacy, current] of Object.entries(LEGACY_UPLOAD_KEYS)) {
      if (legacy in out && !(current in out)) out[current] = out[legacy];
      delete out[legacy];
    }
    return out;
  },
  z.strictObject({
    /** Files in one request. */
    max_files: z.number().int().positive().default(10),
    /** Bytes of one file (50 MiB). */
    max_file_size: z.number().int().positive().default(52_428_800),
    /** Bytes of all files of one request (100 MiB). */
    max_total_size: z.number().int().positive().default(104_857_600),
    /** Accepted for reference configs; Fawn stores files as uploaded (no Markdown conversion). */
    auto_convert_documents: z.boolean().default(false),
    pdf_converter: z.string().optional(),
  }),
);

/**
 * Reference sections Fawn accepts untyped, so a reference config.yaml loads without a wall of
 * warnings; each gets a real schema when the feature that reads it lands.
 */
const referenceSections = {
  tool_output: opaqueSection.optional(),
  loop_detection: opaqueSection.optional(),
  token_usage: opaqueSection.optional(),
  token_budget: tokenBudgetConfigSchema.optional(),
  read_before_write: readBeforeWriteConfigSchema.optional(),
  safety_finish_reason: safetyFinishReasonConfigSchema.optional(),
  sanitization: sanitizationConfigSchema.optional(),
  title: opaqueSection.optional(),
  summarization: opaqueSection.optional(),
  guardrails: guardrailsConfigSchema.optional(),
};

/**
 * One `plugins:` entry: a plugin the extension host loads at start-up (`src/extensions/host/`).
 * `use` names a built-in plugin or a module (path relative to the config file, `#export`).
 */
export const pluginEntrySchema = z.strictObject({
  use: z.string().min(1),
  enabled: z.boolean().default(true),
  /** Operator-facing name, shown in diagnostics and `fawn doctor`. */
  name: z.string().min(1).optional(),
  /** The plugin's own settings, handed to its `install` as a shallow copy. */
  config: z.record(z.string(), z.unknown()).default({}),
  /** A load failure stops start-up instead of being a diagnostic. */
  required: z.boolean().default(false),
});

export const fawnConfigSchema = z
  .strictObject({
    config_version: z.number().int().optional(),
    log_level: logLevelSchema.default("info"),
    max_recursion_limit: z.number().int().positive().optional(),
    models: z.array(modelConfigSchema).default([]),
    tool_groups: z.array(z.looseObject({ name: z.string().min(1) })).default([]),
    tools: z
      .array(
        z.looseObject({
          name: z.string().min(1),
          group: z.string().optional(),
          use: z.string().min(1),
        }),
      )
      .default([]),
    sandbox: sandboxConfigSchema.prefault({}),
    subagents: subagentsConfigSchema.optional(),
    skills: skillsConfigSchema.prefault({}),
    memory: memoryConfigSchema.prefault({}),
    database: databaseConfigSchema.prefault({}),
    metrics: metricsConfigSchema.prefault({}),
    tracing: tracingConfigSchema.prefault({}),
    stream_bridge: z
      .strictObject({
        /** Set ⇒ the Redis bridge (cross-process); unset ⇒ the in-memory bridge. */
        redis_url: z.string().min(1).optional(),
        queue_maxsize: z.number().int().min(1).default(256),
        stream_ttl_seconds: z.number().int().min(0).default(86_400),
      })
      .prefault({}),
    runtime: z
      .strictObject({
        lease_seconds: z.number().min(5).default(30),
        grace_seconds: z.number().min(0).default(10),
        // On by default: leases let peers and restarts recover a dead process's runs.
        heartbeat_enabled: z.boolean().default(true),
        shutdown_timeout_seconds: z.number().min(0).default(5),
        /** How often a process looks for runs of dead peers (bounds recovery latency). */
        recovery_interval_seconds: z.number().min(0.1).default(1),
        /**
         * Execution worker threads for graphs loaded from `graphs:` / langgraph.json (0: they run
         * on the HTTP thread). The lead agent always runs on the HTTP thread.
         */
        workers: z.number().int().min(0).max(64).default(0),
        /**
         * Runs of this process that execute their graph at once (0: no limit); past it a run
         * stays pending until one ends. Keeps streaming runs smooth under overload.
         */
        max_running_runs: z.number().int().min(0).max(100_000).default(0),
      })
      .prefault({}),
    server: z
      .strictObject({
        port: z.number().int().min(1).max(65_535).default(2026),
        // Loopback by default: auth is off by default, so the port must not face the network.
        host: z.string().min(1).default("127.0.0.1"),
        /** Time a client has to send the request line and headers. */
        headers_timeout_seconds: z.number().min(0.1).max(3600).default(30),
        /** Time a client has to send the whole request (body included); never cuts a response. */
        request_timeout_seconds: z.number().min(0.1).max(86_400).default(120),
        keep_alive_timeout_seconds: z.number().min(0).max(3600).default(5),
        /**
         * Serve `POST /internal/truncate`, which deletes every run, thread, checkpoint, assistant
         * and store item: for test suites written against the LangGraph dev server; never on a server holding real work.
         */
        allow_truncate: z.boolean().default(false),
      })
      .prefault({}),
    auth: z
      .strictObject({
        mode: z.enum(AUTH_MODES).default("disabled"),
        // The keys below apply to `local` only. Registration is always open for the first user.
        allow_registration: z.boolean().default(false),
        session_ttl_days: z.number().min(1).max(30).default(7),
        /** `auto`: Secure cookies when the request came over https. */
        secure_cookies: z.enum(["auto", "always", "never"]).default("auto"),
        /** Read the client IP and origin from X-Forwarded-* (only behind a proxy that sets them). */
        trust_proxy: z.boolean().default(false),
        /** Per (client address, account); the two totals below bound guessing from many places. */
        login_max_failures: z.number().int().min(1).default(5),
        login_max_failures_per_account: z.number().int().min(1).default(20),
        login_max_failures_per_address: z.number().int().min(1).default(100),
        login_lockout_seconds: z.number().int().min(1).default(900),
        /** Emails (or user ids) of the administrators: admin-only routes (MCP config) answer them. */
        admins: z.array(z.string().min(1)).default([]),
      })
      .prefault({}),
    uploads: uploadsConfigSchema.prefault({}),
    /**
     * LangGraph.js graphs served beside the lead agent: graph id → `./file.ts:export` (relative to
     * the config file), or `{path, description}`; a langgraph.json's `graphs` are served too.
     */
    graphs: z
      .record(
        z.string().min(1),
        z.union([
          z.string().min(1),
          z.strictObject({ path: z.string().min(1), description: z.string().optional() }),
        ]),
      )
      .optional(),
    /** The LangGraph store (`/store/*`, the graphs' `store`). */
    store: z
      .strictObject({
        /** How often items whose TTL passed are deleted (they are invisible from then on). */
        ttl_sweep_interval_seconds: z.number().min(1).max(86_400).default(60),
      })
      .prefault({}),
    /** Plugins loaded at start-up, in order (a change needs a restart). */
    plugins: z.array(pluginEntrySchema).default([]),
    /** Scheduled runs (`/runs/crons`); see docs/CONFIG.md. */
    crons: z
      .strictObject({
        /** Serve the cron routes and fire due crons from this process. */
        enabled: z.boolean().default(true),
        /** How often this process looks for due crons; 0: never (embedders call `tick`). */
        poll_interval_seconds: z.number().min(0).max(3600).default(10),
        /** How long a claimed firing is this process's before a peer may take it over. */
        lease_seconds: z.number().min(1).max(3600).default(60),
        /** Most firings one poll claims; the rest wait for the next poll. */
        max_firings_per_poll: z.number().int().min(1).max(10_000).default(100),
      })
      .prefault({}),
    /**
     * The custom-agent and user-profile routes (`/api/agents*`, `/api/user-profile`); off by
     * default as in the reference, since they edit what goes into the users' prompts.
     */
    agents_api: z.strictObject({ enabled: z.boolean().default(false) }).prefault({}),
    skill_scan: skillScanConfigSchema.prefault({}),
    suggestions: suggestionsConfigSchema,
    input_polish: inputPolishConfigSchema,
    ...referenceSections,
  })
  .superRefine((config, ctx) => {
    const seen = new Set<string>();
    config.models.forEach((model, index) => {
      if (seen.has(model.name)) {
        ctx.addIssue({
          code: "custom",
          path: ["models", index, "name"],
          message: `duplicate model name "${model.name}"; model names must be unique`,
        });
      }
      seen.add(model.name);
    });
  });

export type ModelConfig = z.output<typeof modelConfigSchema>;
export type SandboxConfig = z.output<typeof sandboxConfigSchema>;
export type SubagentsConfig = z.output<typeof subagentsConfigSchema>;
export type SkillsConfig = z.output<typeof skillsConfigSchema>;
export type AuthConfig = ParsedConfig["auth"];
export type UploadsConfig = ParsedConfig["uploads"];
export type PluginEntry = z.output<typeof pluginEntrySchema>;
type ParsedConfig = z.output<typeof fawnConfigSchema>;

/** The validated configuration, with environment overrides applied and derived values filled in. */
export type FawnConfig = Omit<ParsedConfig, "database"> & {
  /** Absolute FAWN_HOME. */
  home: string;
  database: Omit<ParsedConfig["database"], "url"> & { url: string };
};
