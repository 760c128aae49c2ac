import type { ThreadPaths, ThreadScope } from "../../core/paths.js";
import type { VirtualMount } from "../files/mount-table.js";
import type { Sandbox } from "../sandbox.js";
import type { SandboxProviderKind } from "../sandbox-provider.js";

/** Everything a backend needs to build one thread's sandbox. */
export interface SandboxSpec {
  sandboxId: string;
  scope: ThreadScope;
  threadPaths: ThreadPaths;
  /** The thread's mounts, host aliases filled in. */
  mounts: VirtualMount[];
}

/** A sandbox a backend made or found, with what the lifecycle needs to manage it. */
export interface SandboxInstance {
  readonly sandbox: Sandbox;
  /** false only when it is definitely gone (a stopped container); errors mean "unknown". */
  isAlive(): Promise<boolean>;
  /** Stops whatever runs for it (a container); a no-op for per-command sandboxes. */
  destroy(): Promise<void>;
}

/**
 * How one kind of sandbox is made: the only part that differs between local, bubblewrap and
 * container providers. Acquire serialization, ids, warm pool, reaping and leases are shared
 * (`ManagedSandboxProvider`).
 */
export interface SandboxBackend {
  readonly kind: SandboxProviderKind;
  /** An existing sandbox for this id (a running container), or null. */
  discover(spec: SandboxSpec, signal?: AbortSignal): Promise<SandboxInstance | null>;
  create(spec: SandboxSpec, signal?: AbortSignal): Promise<SandboxInstance>;
}
