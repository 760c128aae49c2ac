import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import type { Clock } from "../core/clock.js";
import type { FawnConfig } from "../core/config/schema.js";
import type { Logger } from "../core/logger.js";
import type { AgentRunsProvider } from "../extensions/agent-runs-provider.js";
import type { LoadedExtensions } from "../extensions/host/index.js";
import type { AssistantStore } from "../ports/assistant-store.js";
import type { CronStore } from "../ports/cron-store.js";
import type { DocumentStore } from "../ports/document-store.js";
import type { GraphStoreBackend } from "../ports/graph-store.js";
import type { LoginAttemptStore } from "../ports/login-attempt-store.js";
import type { RunEventStore } from "../ports/run-event-store.js";
import type { MetricsExposition } from "../ports/run-metrics.js";
import type { RunStore } from "../ports/run-store.js";
import type { StoreDatabase } from "../ports/store-database.js";
import type { StreamBridge } from "../ports/stream-bridge.js";
import type { ThreadStore } from "../ports/thread-store.js";
import type { UserStore } from "../ports/user-store.js";
import type { RunManager } from "../runtime/run-manager.js";
import type { RunService } from "../runtime/run-service.js";

/** The run manager calls the gateway makes: admission of thread operations, reads, cancel. */
export type GatewayRunManager = Pick<
  RunManager,
  | "cancel"
  | "createOrReject"
  | "forget"
  | "get"
  | "getLocal"
  | "localRecords"
  | "ownership"
  | "setStatus"
>;

/** The stores the gateway reads and writes; `database` answers the health probe. */
export interface GatewayStores {
  runs: RunStore;
  events: RunEventStore;
  threads: ThreadStore;
  /** Users, sessions and API tokens for `auth.mode: local`. */
  users: UserStore;
  /** Assistants and their versions. */
  assistants: AssistantStore;
  /** The harness documents: custom agents and user profiles (see ports/document-store.ts). */
  documents: DocumentStore;
  /** Null for process-memory stores (nothing to probe; local accounts vanish on restart). */
  database: StoreDatabase | null;
}

/**
 * What the gateway is built over. The composition root (`src/app/`) assembles it from a Fawn
 * runtime; the gateway knows nothing of which adapters sit behind these contracts.
 */
export interface GatewayDeps {
  config: FawnConfig;
  stores: GatewayStores;
  bridge: StreamBridge;
  /** Where thread state and history are read from (the saver the runs write through). */
  checkpointer: BaseCheckpointSaver;
  manager: GatewayRunManager;
  runService: Pick<RunService, "submit">;
  /** Failed-login counters, shared with every process serving the same users. */
  loginAttempts: LoginAttemptStore;
  logger: Logger;
  /** Loaded plugins: their actions and routes are served under `/api/extensions/`. */
  extensions?: LoadedExtensions | null;
  /** The LangGraph store the runs' graphs get, served at `/store/*`; absent: those routes 404. */
  graphStore?: GraphStoreBackend | null;
  /** Run handles plugin actions and routes act through, for the signed-in caller. */
  agentRuns?: AgentRunsProvider | null;
  /** Scheduled runs; absent: no cron routes (`/info` reports `crons: false`). */
  crons?: { store: CronStore; clock?: Clock } | null;
  /** Served at `GET /metrics` (when `metrics.enabled`); absent: that route 404s. */
  metrics?: MetricsExposition | null;
  /** True while the runtime drains for shutdown: `GET /health/ready` answers 503. */
  draining?: () => boolean;
}
