/** Public entry point: `import { createFawn } from "fawn"`. */

export {
  type AgentBuilder,
  type AgentParts,
  type CreateFawnOptions,
  createFawn,
  type Fawn,
} from "./app/create-fawn.js";
export { createFawnGateway, gatewayDepsOf } from "./app/fawn-gateway.js";
export * from "./core/errors.js";
export type { AgentFactory, StreamingAgent } from "./ports/agent.js";
export type { FawnStores } from "./ports/fawn-stores.js";
export type { RunEvent, RunEventStore } from "./ports/run-event-store.js";
export type { RunStore } from "./ports/run-store.js";
export * from "./ports/run-types.js";
export type { StoreDatabase, StoreHealth } from "./ports/store-database.js";
export type { StreamBridge, StreamEvent, StreamItem } from "./ports/stream-bridge.js";
export type { ThreadStore } from "./ports/thread-store.js";
export type { UserStore } from "./ports/user-store.js";
export { RunManager } from "./runtime/run-manager.js";
export type { RunRecord } from "./runtime/run-record.js";
export type { RunInvocation, SubmitRunRequest } from "./runtime/run-service.js";
export { RunService } from "./runtime/run-service.js";
export type { RunContext } from "./runtime/worker/run-context.js";
