/** The sandbox layer's public surface (agent/ depends on this layer, this layer only on core/). */

export {
  type CreateSandboxProviderOptions,
  createSandboxProvider,
  resolveSandboxKind,
} from "./create-sandbox-provider.js";
export {
  describeSandboxProviders,
  type SandboxDoctorReport,
  type SandboxProviderStatus,
} from "./describe-sandbox-providers.js";
export {
  effectiveMaxResults,
  GLOB_RESULT_LIMITS,
  GREP_RESULT_LIMITS,
} from "./files/search-limits.js";
export {
  VIRTUAL_OUTPUTS,
  VIRTUAL_SKILLS,
  VIRTUAL_UPLOADS,
  VIRTUAL_WORKSPACE,
} from "./files/thread-mounts.js";
export {
  ACQUIRE_LAYERS,
  type AcquireLayer,
  ManagedSandboxProvider,
  type ManagedSandboxProviderOptions,
} from "./lifecycle/managed-provider.js";
export type { SandboxBackend, SandboxInstance, SandboxSpec } from "./lifecycle/sandbox-backend.js";
export { deriveSandboxId, sandboxIdForThread } from "./lifecycle/sandbox-id.js";
export { FileOwnershipStore } from "./ownership/file-ownership-store.js";
export { MemoryOwnershipStore } from "./ownership/memory-ownership-store.js";
export {
  OwnershipBackendError,
  type RenewOutcome,
  type SandboxOwnershipStore,
} from "./ownership/ownership-store.js";
export { RedisOwnershipStore } from "./ownership/redis-ownership-store.js";
export type {
  CommandResult,
  DirEntry,
  DirEntryType,
  ExecuteOptions,
  GlobOptions,
  GlobResult,
  GrepMatch,
  GrepOptions,
  GrepResult,
  Sandbox,
} from "./sandbox.js";
export * from "./sandbox-errors.js";
export type { AcquireOptions, SandboxProvider, SandboxProviderKind } from "./sandbox-provider.js";
export {
  DEFAULT_BASH_OUTPUT_MAX_CHARS,
  describeSandboxFailure,
  formatCommandOutput,
  middleTruncate,
} from "./tool-text.js";
