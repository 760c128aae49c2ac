/**
 * The `SandboxProvider` contract: hands out one sandbox per (user, thread) and tracks it.
 * `get` is on every tool call's path, so it is a pure in-memory lookup — no file, network or
 * ownership-store call of any kind (pinned by `test/seeds/aio-sandbox-get.test.ts`); everything
 * that does IO is `async`.
 */
import type { Sandbox } from "./sandbox.js";

export type SandboxProviderKind = "local" | "bwrap" | "container";

export interface AcquireOptions {
  /** Gives up waiting (for the cross-process lock, for a container to start). */
  signal?: AbortSignal;
}

export interface SandboxProvider {
  readonly kind: SandboxProviderKind;
  /**
   * Files the gateway writes into a thread's folders are visible inside its sandbox without a
   * copy (true for all Fawn providers: they mount the thread's folders).
   */
  readonly usesThreadDataMounts: boolean;
  /** The thread's sandbox id; the same (user, thread) gets the same id in every process. */
  acquire(threadId: string, userId: string, options?: AcquireOptions): Promise<string>;
  /** The active sandbox with this id, or null. Pure in-memory lookup. */
  get(sandboxId: string): Sandbox | null;
  /** The thread is done with it for now; it is parked warm for a quick re-acquire. */
  release(sandboxId: string): Promise<void>;
  /**
   * `release` for whatever sandbox this process holds active for (user, thread), if any — what a
   * run's end calls. Resolved from the identity, never from an id a client could plant.
   */
  releaseThread(threadId: string, userId: string): Promise<void>;
  /** Stops timers, destroys what this process owns, closes its stores. Idempotent. */
  shutdown(): Promise<void>;
}
