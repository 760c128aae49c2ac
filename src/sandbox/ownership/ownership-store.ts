/**
 * Which process may *reap* a sandbox (stop its container, drop its warm slot) — not who may use
 * it: any process serving the thread may. A lease is `own` (normal) or `del` (being torn down),
 * held by one owner id and expiring after a TTL unless renewed.
 */

import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { FawnError, type FawnErrorOptions, ValidationError } from "../../core/errors.js";

export type RenewOutcome =
  /** Ours; the TTL was extended. */
  | "renewed"
  /** No lease at all: nobody owns it, it is safe to `claim` again. */
  | "lapsed"
  /** A peer owns it or it is being torn down: forget it locally, never stop it. */
  | "lost";

export interface SandboxOwnershipStore {
  /** `<hostname>:<uuid hex>`, one per provider instance. */
  readonly ownerId: string;
  /** False for the memory store: it cannot see other processes. */
  readonly supportsCrossProcess: boolean;
  /** Acquire path: takes the lease, also from a peer (handover); false only during a teardown. */
  take(sandboxId: string): Promise<boolean>;
  /**
   * Only if unowned or already ours. `forDestroy` marks the teardown state; a normal claim
   * against our own teardown lease is refused.
   */
  claim(sandboxId: string, options?: { forDestroy?: boolean }): Promise<boolean>;
  renew(sandboxId: string): Promise<RenewOutcome>;
  /** Drops our lease in either state; a no-op when it is not ours. */
  release(sandboxId: string): Promise<void>;
  /** The current owner, or null. Read-only. */
  owner(sandboxId: string): Promise<string | null>;
  close(): Promise<void>;
}

/**
 * The store could not answer (connection lost, disk error): the outcome is unknown. The acquire
 * path fails closed; reaping treats it as "not ours"; renewal keeps the sandbox and retries.
 */
export class OwnershipBackendError extends FawnError {
  constructor(message: string, options: FawnErrorOptions = {}) {
    super("store_unavailable", message, options);
  }
}

export interface LeaseTiming {
  /** How often the provider renews its leases. */
  renewalIntervalMs: number;
  /** TTL = interval × multiplier (at least 2, so one late renewal never loses a lease). */
  ttlMultiplier: number;
}

export const DEFAULT_LEASE_TIMING: LeaseTiming = { renewalIntervalMs: 30_000, ttlMultiplier: 4 };

export function leaseTtlMs(timing: LeaseTiming): number {
  if (timing.ttlMultiplier < 2) {
    throw new ValidationError("sandbox.ownership.ttl_multiplier must be at least 2.");
  }
  return timing.renewalIntervalMs * timing.ttlMultiplier;
}

export function newOwnerId(): string {
  return `${hostname()}:${randomUUID().replaceAll("-", "")}`;
}

const SANDBOX_ID = /^[A-Za-z0-9_.-]{1,128}$/;

/** Sandbox ids become file names and Redis keys: keep them to a safe alphabet. */
export function assertValidSandboxId(sandboxId: string): string {
  if (!SANDBOX_ID.test(sandboxId) || sandboxId === "." || sandboxId === "..") {
    throw new ValidationError(`Invalid sandbox id "${sandboxId}".`);
  }
  return sandboxId;
}

/** One lease as every store reasons about it. */
export interface Lease {
  state: "own" | "del";
  owner: string;
}

/**
 * The lease rules, shared by the memory and file stores (the Redis store runs the same rules as
 * Lua on the server). Each returns the lease to store (null = delete, undefined = unchanged) and
 * the answer.
 */
export const leaseRules = {
  take(current: Lease | null, me: string): { next: Lease | undefined; result: boolean } {
    if (current?.state === "del") return { next: undefined, result: false };
    return { next: { state: "own", owner: me }, result: true };
  },
  claim(
    current: Lease | null,
    me: string,
    forDestroy: boolean,
  ): { next: Lease | undefined; result: boolean } {
    if (current !== null && current.owner !== me) return { next: undefined, result: false };
    if (current?.state === "del" && !forDestroy) return { next: undefined, result: false };
    return { next: { state: forDestroy ? "del" : "own", owner: me }, result: true };
  },
  renew(current: Lease | null, me: string): { next: Lease | undefined; result: RenewOutcome } {
    if (current === null) return { next: undefined, result: "lapsed" };
    if (current.owner !== me || current.state === "del") return { next: undefined, result: "lost" };
    return { next: current, result: "renewed" };
  },
  release(current: Lease | null, me: string): { next: Lease | null | undefined } {
    return { next: current?.owner === me ? null : undefined };
  },
};
