/** RunManager admission, idempotency, cancellation outcomes and lease fencing (no sleeping). */
import { describe, expect, it } from "vitest";
import { spawnTask } from "../../src/core/async/task.js";
import { isUrgent } from "../../src/core/async/urgency.js";
import { ManualClock } from "../../src/core/clock.js";
import {
  ConflictError,
  IdempotencyMismatchError,
  UnsupportedStrategyError,
} from "../../src/core/errors.js";
import type { MultitaskStrategy } from "../../src/ports/run-types.js";
import { RunManager } from "../../src/runtime/run-manager.js";
import { MemoryRunStore } from "../../src/stores/memory/run-store.js";

/** A host task that runs until cancelled. */
function untilCancelled(signal: AbortSignal): Promise<void> {
  return new Promise<void>((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener("abort", () => reject(signal.reason), { once: true });
  });
}

function leased(store: MemoryRunStore, clock: ManualClock, workerId = "worker-a"): RunManager {
  return new RunManager({
    store,
    clock,
    workerId,
    ownership: { heartbeatEnabled: true, leaseSeconds: 30, graceSeconds: 10 },
  });
}

describe("RunManager admission", () => {
  it("returns the same run for the same idempotency key, also from a new process", async () => {
    const store = new MemoryRunStore();
    const first = new RunManager({ store });
    const run = await first.createOrReject("t-idem", { userId: "alice", idempotencyKey: "key-1" });
    const again = await first.createOrReject("t-idem", {
      userId: "alice",
      idempotencyKey: "key-1",
    });
    expect(again).toBe(run);
    expect(again.idempotencyReused).toBe(true);
    const restarted = new RunManager({ store });
    const replay = await restarted.createOrReject("t-idem", {
      userId: "alice",
      idempotencyKey: "key-1",
    });
    expect(replay.runId).toBe(run.runId);
    expect(replay.idempotencyReused).toBe(true);
    await expect(
      first.createOrReject("t-other", { userId: "alice", idempotencyKey: "key-1" }),
    ).rejects.toThrow(IdempotencyMismatchError);
    await expect(
      restarted.createOrReject("t-idem", { userId: "bob", idempotencyKey: "key-1" }),
    ).rejects.toThrow(IdempotencyMismatchError);
  });

  it("rejects a second run on a busy thread and an unknown strategy", async () => {
    const manager = new RunManager({ store: new MemoryRunStore() });
    await manager.createOrReject("t-busy");
    const error = await manager.createOrReject("t-busy").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect((error as ConflictError).status).toBe(409);
    await expect(
      manager.createOrReject("t-new", { multitaskStrategy: "shout" as MultitaskStrategy }),
    ).rejects.toThrow(UnsupportedStrategyError);
  });

  it("interrupt supersedes the active run and persists it as interrupted", async () => {
    const store = new MemoryRunStore();
    const manager = new RunManager({ store });
    const old = await manager.createOrReject("t-int");
    const task = spawnTask("old-host", untilCancelled);
    old.task = task;
    const newer = await manager.createOrReject("t-int", { multitaskStrategy: "interrupt" });
    expect(newer.runId).not.toBe(old.runId);
    expect(old.aborted).toBe(true);
    expect(old.status).toBe("interrupted");
    expect(old.error).toBe("Cancelled by newer run");
    expect(task.cancelRequests).toBe(1);
    expect((await store.get(old.runId))?.status).toBe("interrupted");
    await task.settled();
  });
});

describe("RunManager cancellation outcomes", () => {
  it("cancels a local run once, and never a finished one", async () => {
    const manager = new RunManager({ store: new MemoryRunStore() });
    const run = await manager.createOrReject("t-cancel");
    expect(await manager.tryStart(run.runId)).toBe("started");
    expect(await manager.cancel(run.runId)).toBe("cancelled");
    expect(await manager.cancel(run.runId)).toBe("cancelled");
    const done = await manager.createOrReject("t-done");
    await manager.setStatus(done.runId, "success");
    expect(await manager.cancel(done.runId)).toBe("not_cancellable");
  });

  it("without leases a run of another process is not active locally", async () => {
    const store = new MemoryRunStore();
    const owner = new RunManager({ store });
    const run = await owner.createOrReject("t-remote");
    expect(await new RunManager({ store }).cancel(run.runId)).toBe("not_active_locally");
  });

  it("with a live lease elsewhere the cancel is requested durably and reaches the owner", async () => {
    const store = new MemoryRunStore();
    const clock = new ManualClock();
    const owner = leased(store, clock, "worker-a");
    const run = await owner.createOrReject("t-lease");
    expect(await owner.tryStart(run.runId)).toBe("started");
    const peer = leased(store, clock, "worker-b");
    expect(await peer.cancel(run.runId, { action: "rollback" })).toBe("requested");
    expect((await store.get(run.runId))?.cancel_action).toBe("rollback");
    await owner.heartbeat.renewLeases();
    expect(run.aborted).toBe(true);
    expect(run.abortAction).toBe("rollback");
  });
});

describe("RunManager leases", () => {
  it("renewal advances the lease; a lapsed lease fences the run and cancels its task", async () => {
    const store = new MemoryRunStore();
    const clock = new ManualClock();
    const manager = leased(store, clock);
    const run = await manager.createOrReject("t-renew");
    expect(await manager.tryStart(run.runId)).toBe("started");
    const first = run.leaseExpiresAt;
    clock.advance(10_000);
    await manager.heartbeat.renewLeases();
    expect(run.leaseExpiresAt).not.toBe(first);
    expect((await store.get(run.runId))?.lease_expires_at).toBe(run.leaseExpiresAt);
    const task = spawnTask("host", untilCancelled);
    run.task = task;
    clock.advance(31_000);
    await manager.heartbeat.renewLeases();
    expect(run.ownershipLost).toBe(true);
    expect(task.cancelRequests).toBe(1);
    await task.settled();
    // A fenced worker makes no further durable writes.
    await manager.setStatus(run.runId, "success");
    expect((await store.get(run.runId))?.status).toBe("running");
  });

  it("renews every lease at once and urgently, ahead of a busy store's background work", async () => {
    // A store serving one renewal at a time behind queued background work would let the last
    // runs' leases lapse: each renewal must be in flight together, marked urgent.
    const store = new MemoryRunStore();
    const clock = new ManualClock();
    const manager = leased(store, clock);
    const runs = [];
    for (let i = 0; i < 5; i++) {
      const run = await manager.createOrReject(`t-batch-${i}`);
      expect(await manager.tryStart(run.runId)).toBe("started");
      runs.push(run);
    }
    const calls: boolean[] = [];
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const renew = store.renewLease.bind(store);
    store.renewLease = async (...args: Parameters<typeof store.renewLease>) => {
      calls.push(isUrgent());
      // Held until all five are waiting: a serial pass would never get past the first.
      if (calls.length === runs.length) release();
      await gate;
      return renew(...args);
    };
    clock.advance(10_000);
    await manager.heartbeat.renewLeases();
    expect(calls).toEqual([true, true, true, true, true]);
    for (const run of runs) expect(run.ownershipLost).toBe(false);
  });

  it("a peer takes over an expired run; the old owner is fenced on its next write", async () => {
    const store = new MemoryRunStore();
    const clock = new ManualClock();
    const owner = leased(store, clock, "worker-a");
    const run = await owner.createOrReject("t-take");
    expect(await owner.tryStart(run.runId)).toBe("started");
    clock.advance(41_000);
    const peer = leased(store, clock, "worker-b");
    expect(await peer.cancel(run.runId)).toBe("taken_over");
    await owner.setStatus(run.runId, "success");
    expect(run.ownershipLost).toBe(true);
    expect((await store.get(run.runId))?.status).toBe("error");
  });
});
