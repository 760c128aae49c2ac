import type { FawnConfig } from "../core/config/schema.js";
import type { Logger } from "../core/logger.js";
import type { RunEventStore } from "../ports/run-event-store.js";
import type { AssistantCatalog } from "./assistants/assistant-catalog.js";
import type { CronService } from "./crons/cron-service.js";
import type { RunGateway } from "./runs/run-gateway.js";
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
  /** Scheduled runs, when the server has a cron store. */
  crons?: CronService;
  heartbeatMs: number;
  streamHooks: StreamTestHooks | undefined;
  logger: Logger;
}
