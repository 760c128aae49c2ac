import { mkdir } from "node:fs/promises";
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import { MemorySaver } from "@langchain/langgraph-checkpoint";
import { closeMcpToolCache } from "../agent/mcp/mcp-tool-cache.js";
import { flushMemoryUpdates } from "../agent/memory/memory-update-queue.js";
import { closeBrowserSessions } from "../agent/tools/browser/browser-session-pool.js";
import type { Clock } from "../core/clock.js";
import { type DatabasePoolOptions, databasePoolOptions } from "../core/config/database-schema.js";
import { type LoadedConfig, loadConfig } from "../core/config/load-config.js";
import type { FawnConfig } from "../core/config/schema.js";
import { type Logger, rootLogger } from "../core/logger.js";
import { DEFAULT_USER_ID, FawnPaths } from "../core/paths.js";
import type { AgentRunsProvider } from "../extensions/agent-runs-provider.js";
import type { ThreadArtifacts } from "../extensions/artifacts/index.js";
import type { LoadedExtensions } from "../extensions/host/index.js";
import type { AgentFactory } from "../ports/agent.js";
import type { DocumentStore } from "../ports/document-store.js";
import type { FawnStores } from "../ports/fawn-stores.js";
import type { GraphStoreBackend } from "../ports/graph-store.js";
import type { LoginAttemptStore } from "../ports/login-attempt-store.js";
import type { RunExecution } from "../ports/run-execution.js";
import type { StreamBridge } from "../ports/stream-bridge.js";
import { OrphanRecovery } from "../runtime/lifecycle/recovery.js";
import { RunSlots } from "../runtime/lifecycle/run-slots.js";
import type { DrainOutcome } from "../runtime/lifecycle/shutdown.js";
import { RunManager } from "../runtime/run-manager.js";
import type { RunRecord } from "../runtime/run-record.js";
import { RunService } from "../runtime/run-service.js";
import type { RunContext } from "../runtime/worker/run-context.js";
import {
  createSandboxProvider,
  ManagedSandboxProvider,
  type SandboxProvider,
} from "../sandbox/index.js";
import { createMemoryStores } from "../stores/memory/stores.js";
import { MemoryStreamBridge } from "../stores/memory/stream-bridge.js";
import { RedisStreamBridge } from "../stores/redis/stream-bridge.js";
import { SqlCheckpointSaver } from "../stores/sql/checkpoint/sql-checkpoint-saver.js";
import { openSqlStores } from "../stores/sql/stores.js";
import { agentRunsHostOf, threadArtifactsOf } from "./agent-runs-wiring.js";
import { CronHost, cronStoreOf } from "./cron-host.js";
import type { EmbeddableStores } from "./embeddable-stores.js";
import { wireGraphStore } from "./graph-store-wiring.js";
import { loginAttemptStoreOf } from "./login-attempt-store-of.js";
import { FawnMetrics } from "./metrics/fawn-metrics.js";
import { instrumentBridge, instrumentEventStore } from "./metrics/store-instruments.js";
import { type PluginSettings, type PreparedPlugins, preparePlugins } from "./plugin-host.js";
import { RunCompletionHooks } from "./run-completion-hooks.js";
import { createTracingHost, type TracingHostOptions } from "./tracing/run-tracing-host.js";

/** What `createFawn` chose that the graph is built over. */
export interface AgentParts {
  /** The saver the runtime reads thread state from: the graph must write through it. */
  checkpointer: BaseCheckpointSaver;
  /** Where the agent's tools run commands and touch files. */
  sandbox: SandboxProvider;
  /** Loaded plugins: their tools and model hooks join the lead agent. */
  extensions?: LoadedExtensions | null;
  /** Run handles for plugin tools (a provider attached once the gateway exists). */
  agentRuns?: AgentRunsProvider | null;
  /** The harness documents (custom agents, user profiles), shared by every process. */
  documents?: DocumentStore;
}

/** Builds the runtime's agent factory once the checkpointer and sandbox are chosen. */
export type AgentBuilder = (parts: AgentParts) => AgentFactory;

/** The graph every run executes: a ready factory, or a builder given what createFawn chose. */
export type AgentChoice =
  | { agentFactory: AgentFactory; buildAgent?: never }
  | {
      /** Called at the first run; a graph that fails to build fails that run, and the next tries again. */
      buildAgent: AgentBuilder;
      agentFactory?: never;
    };

export type CreateFawnOptions = CreateFawnSettings & AgentChoice;

export interface CreateFawnSettings extends PluginSettings {
  /** A validated config; default: `loadConfig()` (config.yaml + environment). */
  config?: FawnConfig;
  /**
   * Override the stores (default: from `config.database.url`; `memory:` gives memory stores).
   * SQL stores also hold the default checkpointer and login counters; memory stores get memory ones.
   */
  stores?: EmbeddableStores;
  bridge?: StreamBridge;
  checkpointer?: BaseCheckpointSaver;
  /** Where failed logins are counted (default: Redis, else the SQL database, else memory). */
  loginAttempts?: LoginAttemptStore;
  /**
   * The sandbox provider agents' tools run in (default: the one `sandbox.use` selects, shut down
   * by `close()`); a given provider stays the caller's to shut down.
   */
  sandbox?: SandboxProvider;
  /**
   * What the server does when a run completes: copy the state's `title` to the thread row and POST
   * the run to its `webhook` (default off; `fawn serve` and `fawn run` turn it on).
   */
  completionHooks?: boolean;
  /** Extra OpenTelemetry span processors beside `tracing.otlp_endpoint` (an embedder's exporter). */
  spanProcessors?: TracingHostOptions["spanProcessors"];
  /**
   * Execution workers (`runtime.workers`): runs of the graphs they serve stream in their threads.
   * Closed by `close()` once the runs are done.
   */
  execution?: RunExecution;
  /** Extra run context (journal factory, housekeeping, …); it wins over `completionHooks`. */
  runContext?: Partial<RunContext>;
  clock?: Clock;
  logger?: Logger;
  /**
   * This process's worker id (default `host:<random UUID>`). It must name one process incarnation:
   * the stores fence a run's writes on it, so a restarted process that reused the old id would be
   * taken for the run's previous owner.
   */
  workerId?: string;
}

/** An in-process Fawn runtime: the same stores, manager and workers the server uses. */
export interface Fawn {
  config: FawnConfig;
  stores: FawnStores;
  bridge: StreamBridge;
  checkpointer: BaseCheckpointSaver;
  /** The LangGraph store (`/store/*`), in the runs' database; runs' graphs get it scoped. */
  graphStore: GraphStoreBackend;
  /** Failed-login counters, shared with every process over the same Redis or database. */
  loginAttempts: LoginAttemptStore;
  /** Where agents run commands and touch files (`sandbox.use`: auto picks bwrap where it works). */
  sandbox: SandboxProvider;
  manager: RunManager;
  runs: RunService;
  recovery: OrphanRecovery;
  /** Run handles for plugins, acting for one user each (`bind`). */
  agentRuns: AgentRunsProvider;
  /** File hand-off between threads; its lease and verification seams are replaceable. */
  artifacts: ThreadArtifacts;
  logger: Logger;
  /** The plugins `config.plugins` loaded, and what failed (`diagnostics`). */
  extensions: PreparedPlugins["extensions"];
  /** Scheduled runs: their store, and the scheduler a gateway over this runtime starts. */
  crons: CronHost;
  /** Prometheus metrics of this runtime (its own registry), served at `GET /metrics`. */
  metrics: FawnMetrics;
  /**
   * Before `close()` on SIGTERM: refuse new runs, give local runs until `timeoutMs` (default
   * `runtime.shutdown_timeout_seconds`) to end on their own, then hand the rest to peers through
   * their leases when peers can take them (leases on and a cross-process stream bridge); without
   * peers they stay for `close()` to interrupt.
   */
  drain(options?: { timeoutMs?: number }): Promise<DrainOutcome>;
  /** Interrupt active runs, let finalizers finish (bounded), close stores. */
  close(): Promise<void>;
}

export async function createFawn(options: CreateFawnOptions): Promise<Fawn> {
  const config = options.config ?? (await loadConfig()).config;
  const logger = options.logger ?? rootLogger;
  const paths = new FawnPaths(config.home);
  // Before anything is opened: a `required` plugin that fails to load stops start-up here.
  const plugins = await preparePlugins(config, options, logger);
  // First: an explicitly chosen provider that cannot work here fails before anything is opened.
  const sandbox =
    options.sandbox ??
    (await createSandboxProvider({
      config: config.sandbox,
      paths,
      ...(config.stream_bridge.redis_url
        ? { streamBridgeRedisUrl: config.stream_bridge.redis_url }
        : {}),
      logger,
    }));
  const stores =
    options.stores ??
    (await openStores(
      config.database.url,
      config.home,
      options.clock,
      databasePoolOptions(config.database),
    ));
  const bridge = options.bridge ?? createBridge(config);
  const checkpointer = options.checkpointer ?? defaultCheckpointer(stores);
  const loginAttempts = options.loginAttempts ?? loginAttemptStoreOf(config, stores);
  const graphStore = wireGraphStore(config, stores, logger, options.clock);
  const tracing = createTracingHost(config.tracing, {
    logger,
    ...(options.spanProcessors ? { spanProcessors: options.spanProcessors } : {}),
  });
  if (tracing.enabled.length > 0) logger.info({ tracing: tracing.enabled }, "run tracing on");
  const completion = options.completionHooks
    ? new RunCompletionHooks({
        threads: stores.threads,
        runs: stores.runs,
        checkpointer,
        logger,
      })
    : null;
  // The census reads the manager's records at scrape time; the manager exists before any scrape.
  const metrics: FawnMetrics = new FawnMetrics({
    active: (): number => manager.localRecords().filter((r) => r.isActive()).length,
    pending: (): number => manager.localRecords().filter((r) => r.status === "pending").length,
  });
  instrumentEventStore(stores.events, metrics);
  instrumentBridge(bridge, metrics);
  if (sandbox instanceof ManagedSandboxProvider) {
    const { registry } = sandbox;
    metrics.watchSandboxes({ active: () => registry.active.size, warm: () => registry.warm.size });
  }
  const manager: RunManager = new RunManager({
    store: stores.runs,
    observer: metrics,
    eventStore: stores.events,
    ...(options.workerId ? { workerId: options.workerId } : {}),
    ownership: {
      leaseSeconds: config.runtime.lease_seconds,
      graceSeconds: config.runtime.grace_seconds,
      heartbeatEnabled: config.runtime.heartbeat_enabled,
    },
    ...(options.clock ? { clock: options.clock } : {}),
    logger,
  });
  const crons = new CronHost(cronStoreOf(stores), {
    config: config.crons,
    owner: manager.workerId,
    clock: options.clock,
    logger,
  });
  const artifacts = threadArtifactsOf({ config, paths, sandbox, manager, stores });
  const runs = new RunService({
    manager,
    bridge,
    ctx: {
      checkpointer,
      storeFor: graphStore.storeFor,
      eventStore: stores.events,
      threadStore: stores.threads,
      logger,
      tracing: tracing.tracing,
      releaseSandbox: (record) =>
        sandbox.releaseThread(record.threadId, record.userId ?? DEFAULT_USER_ID),
      // The delivery check compares the thread's outputs folder before and after each run.
      outputsDirFor: (record) => outputsDirOf(paths, record),
      // Runs admitted with imported files check them before their agent is built.
      prepareRun: (record, signal) => artifacts.prepareRun(record, signal),
      ...(completion ? { onRunCompleted: completion.onRunCompleted } : {}),
      ...(options.execution ? { execution: options.execution } : {}),
      ...(config.runtime.max_running_runs > 0
        ? { runSlots: new RunSlots(config.runtime.max_running_runs) }
        : {}),
      ...options.runContext,
    },
    agentFactory: agentFactoryOf(options, {
      checkpointer,
      sandbox,
      extensions: plugins.extensions,
      agentRuns: plugins.agentRuns,
      documents: stores.documents,
    }),
  });
  const recovery = new OrphanRecovery(runs, stores.threads);
  await recovery.runOnce("startup");
  recovery.start((config.runtime.recovery_interval_seconds ?? 1) * 1000);
  manager.startHeartbeat();
  const agentRuns =
    options.agentRuns ??
    agentRunsHostOf(
      { config, stores, bridge, checkpointer, manager, runService: runs, loginAttempts, logger },
      artifacts,
    );
  // Plugin tools, hooks and services reach run handles through the slot they were built with.
  plugins.agentRuns.attach(agentRuns);
  await plugins.host.start();
  return {
    config,
    stores,
    bridge,
    checkpointer,
    graphStore: graphStore.store,
    loginAttempts,
    sandbox,
    manager,
    runs,
    recovery,
    agentRuns,
    artifacts,
    logger,
    extensions: plugins.extensions,
    crons,
    metrics,
    async drain(drainOptions = {}) {
      manager.beginDrain();
      // Schedules would only be refused now; stopping them keeps the log quiet.
      await crons.stop();
      const timeoutMs = drainOptions.timeoutMs ?? config.runtime.shutdown_timeout_seconds * 1000;
      const finished = await manager.awaitLocalRuns(timeoutMs);
      const peersCanTakeOver = manager.heartbeatEnabled && bridge.supportsCrossProcess;
      if (!peersCanTakeOver) return { finished, handedOff: [] };
      // Our own scanner must not claim the runs we hand to peers.
      recovery.stop();
      return { finished, handedOff: await manager.handOffRuns() };
    },
    async close() {
      // First: plugin services and the cron scheduler start runs, so they stop before the runs
      // drain and stores close.
      await plugins.host.stop();
      await crons.stop();
      recovery.stop();
      runs.close();
      await manager.shutdown({ timeoutMs: config.runtime.shutdown_timeout_seconds * 1000 });
      await options.execution?.close();
      // Runs are done, so their memory updates are all queued: run them now, bounded.
      await flushMemoryUpdates(config.home, config.memory.shutdown_flush_timeout_seconds * 1000);
      // No tool call is running any more: end the MCP sessions (stdio servers exit).
      await closeMcpToolCache(config.home);
      // Likewise the threads' browser sessions (Chromium exits).
      await closeBrowserSessions(config.home);
      // Every run's trace is closed: send what the exporters still hold.
      await tracing.shutdown();
      // After the runs: no tool call is using a sandbox any more.
      if (!options.sandbox) await sandbox.shutdown();
      await bridge.close();
      if (!options.loginAttempts) await loginAttempts.close();
      // Before the stores: the SQL graph store shares their database.
      await graphStore.close();
      await stores.close();
    },
  };
}

/**
 * SQL stores keep checkpoints in the same database (one pool or one SQLite connection) through
 * Fawn's linear-growth saver; memory stores keep them in a MemorySaver.
 */
function defaultCheckpointer(stores: EmbeddableStores): BaseCheckpointSaver {
  return stores.database ? new SqlCheckpointSaver(stores.database) : new MemorySaver();
}

/** The given factory, or one that builds the graph at the first run and reuses it. */
function agentFactoryOf(choice: AgentChoice, parts: AgentParts): AgentFactory {
  if (choice.agentFactory) return choice.agentFactory;
  const { buildAgent } = choice;
  let built: AgentFactory | undefined;
  return (args) => {
    built ??= buildAgent(parts);
    return built(args);
  };
}

/** Redis when `stream_bridge.redis_url` / `FAWN_REDIS_URL` is set (cross-process), else memory. */
export function createBridge(config: FawnConfig): StreamBridge {
  const {
    redis_url: url,
    queue_maxsize: queueMaxSize,
    stream_ttl_seconds: streamTtlSeconds,
  } = config.stream_bridge;
  if (url) return new RedisStreamBridge({ url, queueMaxSize, streamTtlSeconds });
  return new MemoryStreamBridge({ queueMaxSize });
}

/** `memory:` → memory stores; `sqlite:`/`postgres://` → SQL stores (folder created for SQLite). */
export async function openStores(
  url: string,
  home: string,
  clock?: Clock,
  pool: DatabasePoolOptions = {},
): Promise<EmbeddableStores> {
  if (url === "memory:" || url === "memory") return createMemoryStores(clock ? { clock } : {});
  if (url.startsWith("sqlite:") && !url.startsWith("sqlite::memory:"))
    await mkdir(home, { recursive: true });
  return openSqlStores(url, { ...pool, ...(clock ? { clock } : {}) });
}

export type { LoadedConfig };

/** The thread's outputs folder, or null for a thread id no folder can be named after. */
function outputsDirOf(paths: FawnPaths, record: RunRecord): string | null {
  try {
    return paths.threadPaths({
      threadId: record.threadId,
      userId: record.userId ?? DEFAULT_USER_ID,
    }).outputsDir;
  } catch {
    return null;
  }
}
