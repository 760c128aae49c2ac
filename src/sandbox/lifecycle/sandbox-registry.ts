import type { ThreadScope } from "../../core/paths.js";
import type { SandboxInstance } from "./sandbox-backend.js";

export interface TrackedSandbox {
  sandboxId: string;
  instance: SandboxInstance;
  scope: ThreadScope;
  /** `user\0thread`: the identity this id was derived for. */
  identity: string;
  /** ms since epoch; bumped by `get`. */
  lastActivity: number;
  /** Bumped at every (re)registration, so a stale renewal cannot drop a re-acquired sandbox. */
  epoch: number;
}

export interface WarmSandbox {
  sandboxId: string;
  instance: SandboxInstance;
  scope: ThreadScope;
  identity: string;
  parkedAt: number;
  epoch: number;
}

export function identityOf(scope: ThreadScope): string {
  return `${scope.userId}\0${scope.threadId}`;
}

/**
 * The provider's in-memory state — active sandboxes, the warm pool, which thread owns which id,
 * ids being torn down — with every transition in one place. Pure memory: `get` reads it directly.
 */
export class SandboxRegistry {
  readonly active = new Map<string, TrackedSandbox>();
  readonly warm = new Map<string, WarmSandbox>();
  readonly teardown = new Set<string>();
  private readonly byThread = new Map<string, string>();
  private readonly identities = new Map<string, string>();
  private epochCounter = 0;

  activeIdFor(scope: ThreadScope): string | undefined {
    const id = this.byThread.get(identityOf(scope));
    return id !== undefined && this.active.has(id) && !this.teardown.has(id) ? id : undefined;
  }

  /** The identity an id is tracked for (active or warm), if any. */
  identityOfId(sandboxId: string): string | undefined {
    return this.identities.get(sandboxId);
  }

  activate(sandboxId: string, instance: SandboxInstance, scope: ThreadScope, now: number): void {
    const identity = identityOf(scope);
    this.warm.delete(sandboxId);
    this.epochCounter += 1;
    this.active.set(sandboxId, {
      sandboxId,
      instance,
      scope,
      identity,
      lastActivity: now,
      epoch: this.epochCounter,
    });
    this.byThread.set(identity, sandboxId);
    this.identities.set(sandboxId, identity);
  }

  /** active → warm; the identity stays, so only the same thread can reclaim it. */
  park(sandboxId: string, now: number): WarmSandbox | undefined {
    const tracked = this.active.get(sandboxId);
    if (!tracked) return undefined;
    this.active.delete(sandboxId);
    if (this.byThread.get(tracked.identity) === sandboxId) this.byThread.delete(tracked.identity);
    const parked: WarmSandbox = {
      sandboxId,
      instance: tracked.instance,
      scope: tracked.scope,
      identity: tracked.identity,
      parkedAt: now,
      epoch: tracked.epoch,
    };
    this.warm.set(sandboxId, parked);
    return parked;
  }

  /** Drops every trace of the id (it is destroyed, or a peer owns it now). */
  forget(sandboxId: string): TrackedSandbox | WarmSandbox | undefined {
    const entry = this.active.get(sandboxId) ?? this.warm.get(sandboxId);
    this.active.delete(sandboxId);
    this.warm.delete(sandboxId);
    const identity = this.identities.get(sandboxId);
    if (identity !== undefined && this.byThread.get(identity) === sandboxId) {
      this.byThread.delete(identity);
    }
    this.identities.delete(sandboxId);
    return entry;
  }

  epochOf(sandboxId: string): number | undefined {
    return (this.active.get(sandboxId) ?? this.warm.get(sandboxId))?.epoch;
  }

  trackedIds(): string[] {
    return [...this.active.keys(), ...this.warm.keys()];
  }

  get size(): number {
    return this.active.size + this.warm.size;
  }
}
