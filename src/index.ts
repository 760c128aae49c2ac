/** Public entry point: `import { createFawn } from "fawn"`. */

export * from "./core/errors.js";
export { type CreateFawnOptions, createFawn, type Fawn } from "./embedded/create-fawn.js";
export type { RunEvent, RunEventStore } from "./runtime/run-event-store.js";
export { RunManager } from "./runtime/run-manager.js";
export type { RunRecord } from "./runtime/run-record.js";
export type { RunInvocation, SubmitRunRequest } from "./runtime/run-service.js";
export { RunService } from "./runtime/run-service.js";
export type { RunStore } from "./runtime/run-store.js";
export * from "./runtime/run-types.js";
export type { StreamBridge, StreamEvent, StreamItem } from "./runtime/stream-bridge.js";
export type { ThreadStore } from "./runtime/thread-store.js";
export type { AgentFactory, RunContext, StreamingAgent } from "./runtime/worker/run-context.js";
