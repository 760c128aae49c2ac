import type { Fawn } from "../app/create-fawn.js";
import type { Logger } from "../core/logger.js";
import type { AssistantCatalog } from "./assistants/assistant-catalog.js";
import type { RunGateway } from "./runs/run-gateway.js";
import type { StreamTestHooks } from "./sse/run-event-stream.js";
import type { ThreadStateService } from "./state/thread-state-service.js";
import type { ThreadService } from "./threads/thread-service.js";

/** What route handlers call: services that know nothing of HTTP. Built once per app. */
export interface GatewayServices {
  fawn: Fawn;
  threads: ThreadService;
  state: ThreadStateService;
  runs: RunGateway;
  assistants: AssistantCatalog;
  heartbeatMs: number;
  streamHooks: StreamTestHooks | undefined;
  logger: Logger;
}
