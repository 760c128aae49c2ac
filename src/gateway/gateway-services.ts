import type { CustomAgentStore } from "../agent/custom-agents/custom-agent-store.js";
import type { MemoryStore } from "../agent/memory/memory-store.js";
import type { FawnConfig } from "../core/config/schema.js";
import type { Logger } from "../core/logger.js";
import type { GraphStoreBackend } from "../ports/graph-store.js";
import type { RunEventStore } from "../ports/run-event-store.js";
import type { StreamSubscriberGauge } from "../ports/run-metrics.js";
import type { AssistantCatalog } from "./assistants/assistant-catalog.js";
import type { ThreadBranches } from "./branches/thread-branches.js";
import type { CronService } from "./crons/cron-service.js";
import type { DataReset } from "./internal/data-reset.js";
import type { RunGateway } from "./runs/run-gateway.js";
import type { SkillServices } from "./skills/skill-services.js";
import type { StreamTestHooks } from "./sse/run-event-stream.js";
import type { ThreadStateService } from "./state/thread-state-service.js";
import type { ThreadService } from "./threads/thread-service.js";

/** What route handlers call: services that know nothing of HTTP. Built once per app. */
export interface GatewayServices {
  /** The settings routes read (home folder, uploads, models, skills, MCP, auth). */
  config: FawnConfig;
  threads: ThreadService;
  state: ThreadStateService;
  runs: RunGateway;
  /** A run's durable events (owner checked through `runs.getOwned` first). */
  events: RunEventStore;
  assistants: AssistantCatalog;
  /** The LangGraph store behind `/store/*` (scoped per caller by the routes); null: none. */
  graphStore: GraphStoreBackend | null;
  /** `POST /internal/truncate`'s reset; null unless `server.allow_truncate`. */
  reset: DataReset | null;
  /** Scheduled runs, when the server has a cron store. */
  crons?: CronService;
  /** Branches of a thread from one of its turns (`/threads/{id}/branches`). */
  branches: ThreadBranches;
  /** Users' custom agents and profiles (`/agents`, `/user-profile`). */
  customAgents: CustomAgentStore;
  /** The callers' skills: catalog, switches, custom skills (`/skills…`). */
  skills: SkillServices;
  /** Users' memory (`/memory…`), in the document store. */
  memory: MemoryStore;
  heartbeatMs: number;
  streamHooks: StreamTestHooks | undefined;
  /** Counts open SSE streams (metrics); absent: uncounted. */
  streamSubscribers?: StreamSubscriberGauge | undefined;
  logger: Logger;
}
