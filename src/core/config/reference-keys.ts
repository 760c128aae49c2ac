/**
 * Keys of the reference's config.yaml that Fawn has no setting for, each with what to do
 * instead. A path covers everything below it; `[]` stands for any list index. Keys Fawn honours
 * are not listed here: they are Fawn's schema (`schema.ts`) or turned into it
 * (`reference-mapping.ts`).
 */
const SANDBOX_BOXLITE =
  "BoxLite micro-VMs are not a Fawn sandbox; use sandbox.use: bwrap (isolated, no Docker) or container";
const SANDBOX_TENKI =
  "Tenki cloud microVMs are not a Fawn sandbox; use sandbox.use: bwrap (isolated, no Docker) or container";
const SANDBOX_PROVISIONER =
  "Fawn has no Kubernetes sandbox provisioner; use sandbox.use: container on each host, or bwrap";
const CHECKPOINT_DELTA =
  "Fawn's checkpoints already store only each step's new messages, so their size grows linearly; nothing to choose";
const NO_CHANNELS =
  "Fawn has no IM channels yet; reach the agent through the HTTP API (LangGraph SDK) or the web UI";

export const UNSUPPORTED_REFERENCE_KEYS: Readonly<Record<string, string>> = {
  "logging.enhance.enabled":
    "Fawn's log lines are JSON and carry the run id of the run they belong to; nothing to turn on",
  "logging.enhance.format":
    "Fawn always writes JSON log lines; pipe them through pino-pretty to read them as text",
  extensions:
    "MCP servers and skill switches live in extensions_config.json; add middlewares with a Fawn plugin (plugins:)",
  tool_search:
    "Fawn gives the agent every enabled MCP tool directly; switch servers off in extensions_config.json to keep the tool list short",
  acp_agents:
    "Fawn has no ACP client; define the helper as a sub-agent under subagents.custom_agents, or serve it as an MCP server",
  skill_evolution:
    "agents do not write skills in Fawn; add custom skills yourself (the skills API, or SKILL.md folders under FAWN_HOME/users/<user>/skills/custom)",
  authorization:
    "Fawn has no role-based policies: every user sees only their own threads, and auth.admins lists who may change MCP settings",
  circuit_breaker:
    "Fawn retries failed model calls per call (models[].max_retries); there is no process-wide circuit breaker",
  llm_call:
    "Fawn has no process-wide LLM concurrency cap or retry tuning; set models[].max_retries, and rate-limit at your model gateway",
  tool_progress:
    "Fawn's loop_detection stops repeated tool calls; tool-stagnation tracking is not available",
  checkpointer:
    "Fawn keeps checkpoints in its one database; remove this section and set database.url (or database.backend with postgres_url / sqlite_dir)",
  "database.echo_sql":
    "Fawn does not log SQL statements; use the database's own statement log (PostgreSQL log_statement)",
  "database.postgres_schema":
    "Fawn uses the connection's search_path; give Fawn its own database, or run ALTER ROLE <user> SET search_path = <schema>",
  "database.checkpoint_channel_mode": CHECKPOINT_DELTA,
  "database.checkpoint_delta": CHECKPOINT_DELTA,
  "database.checkpoint_graph_cache":
    "Fawn compiles no per-assistant accessor graphs for thread state; nothing to size",
  "database.checkpoint_cache":
    "Fawn reads checkpoint history from the database; there is no checkpoint cache to configure",
  run_events:
    "Fawn always keeps run events, with token usage, in its database (database.url); nothing to set",
  agent_storage:
    "Fawn always keeps custom agents in its database, so every process sees them; nothing to set",
  "scheduler.multi_instance":
    "Fawn's crons are claimed through the database, so any number of processes may poll them; nothing to set",
  "scheduler.max_concurrent_runs":
    "Fawn bounds how many crons one poll fires with crons.max_firings_per_poll",
  "scheduler.min_once_delay_seconds":
    "Fawn's crons API (/runs/crons) takes a cron schedule; there is no one-time minimum delay",
  mcp_tasks: "Fawn has no long-running MCP task poller; an MCP tool call completes within its run",
  dedupe_storage: NO_CHANNELS,
  channels: NO_CHANNELS,
  channel_connections: NO_CHANNELS,
  "stream_bridge.recovered_stream_cleanup_delay_seconds":
    "Fawn expires a finished run's stream after stream_bridge.stream_ttl_seconds",
  "stream_bridge.max_connections":
    "Fawn's Redis bridge shares one connection for commands and opens one per live stream reader; there is no pool ceiling",
  "auth.oidc":
    "Fawn signs users in with local accounts (auth.mode: local); for SSO put an OIDC-aware proxy in front of it",
  "sandbox.thread_data_mounts":
    "Fawn's sandboxes always see the thread's folders at /mnt/user-data; nothing to set",
  "sandbox.overflow_policy":
    "when sandbox.replicas is reached Fawn's container provider stops the oldest idle container (never an active one); set sandbox.replicas",
  "sandbox.acquire_timeout": "Fawn's container provider has no acquire queue; set sandbox.replicas",
  "sandbox.burst_limit": "Fawn's container provider has no burst limit; set sandbox.replicas",
  "sandbox.provisioner_url": SANDBOX_PROVISIONER,
  "sandbox.provisioner_api_key": SANDBOX_PROVISIONER,
  "sandbox.memory_mib": SANDBOX_BOXLITE,
  "sandbox.cpus": SANDBOX_BOXLITE,
  "sandbox.health_check_skip_seconds": SANDBOX_BOXLITE,
  "sandbox.api_key": SANDBOX_TENKI,
  "sandbox.base_url": SANDBOX_TENKI,
  "sandbox.project_id": SANDBOX_TENKI,
  "sandbox.workspace_id": SANDBOX_TENKI,
  "sandbox.cpu_cores": SANDBOX_TENKI,
  "sandbox.memory_mb": SANDBOX_TENKI,
  "sandbox.max_duration": SANDBOX_TENKI,
  "sandbox.sticky": SANDBOX_TENKI,
  "sandbox.home_dir": SANDBOX_TENKI,
  "plugins[].package":
    "a Fawn plugin is a JavaScript module named by use (a built-in name or a file path); install its npm package yourself",
};

/** Reference-only sections whose keys `reference-mapping.ts` moves onto Fawn's settings. */
export const MAPPED_REFERENCE_SECTIONS = ["run_ownership", "scheduler", "logging"] as const;

/**
 * The "instead" text for a key path, matched on the path itself or the nearest listed parent;
 * list indexes match `[]`. Null when the key is not a known reference key.
 */
export function unsupportedReferenceKey(path: string): string | null {
  let candidate = path.replace(/\[\d+\]/g, "[]");
  for (;;) {
    const instead = UNSUPPORTED_REFERENCE_KEYS[candidate];
    if (instead !== undefined) return instead;
    const cut = Math.max(candidate.lastIndexOf("."), candidate.lastIndexOf("["));
    if (cut <= 0) return null;
    candidate = candidate.slice(0, cut);
  }
}
