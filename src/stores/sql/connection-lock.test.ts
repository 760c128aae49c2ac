import { describe, expect, it } from "vitest";
import { runUrgent } from "../../core/async/urgency.js";
import { ConnectionLock } from "./connection-lock.js";

/** Queues a caller and records the order in which it is handed the lock. */
function queue(lock: ConnectionLock, name: string, order: string[]): Promise<void> {
  return lock.lock().then((release) => {
    order.push(name);
    release();
  });
}

describe("ConnectionLock", () => {
  it("hands the lock to waiters in arrival order", async () => {
    const lock = new ConnectionLock();
    const order: string[] = [];
    const release = await lock.lock();
    const waiters = [queue(lock, "a", order), queue(lock, "b", order), queue(lock, "c", order)];
    expect(lock.pending).toBe(3);
    release();
    await Promise.all(waiters);
    expect(order).toEqual(["a", "b", "c"]);
  });

  it("serves an urgent caller (a run's admission) before queued ordinary callers", async () => {
    const lock = new ConnectionLock();
    const order: string[] = [];
    const release = await lock.lock();
    const waiters = [
      queue(lock, "journal batch", order),
      queue(lock, "checkpoint", order),
      runUrgent(() => queue(lock, "admission", order)),
      queue(lock, "finalizer", order),
    ];
    release();
    await Promise.all(waiters);
    expect(order).toEqual(["admission", "journal batch", "checkpoint", "finalizer"]);
  });

  it("keeps the mark inside the marked call only", async () => {
    const lock = new ConnectionLock();
    const order: string[] = [];
    const release = await lock.lock();
    // What the caller does after `await runUrgent(…)` is ordinary again.
    const afterAdmission = (async () => {
      await runUrgent(async () => undefined);
      await queue(lock, "worker after admission", order);
    })();
    await new Promise((resolve) => setImmediate(resolve));
    const waiters = [afterAdmission, runUrgent(() => queue(lock, "next admission", order))];
    release();
    await Promise.all(waiters);
    expect(order).toEqual(["next admission", "worker after admission"]);
  });

  it("a second call of the same release function frees nobody else's turn", async () => {
    const lock = new ConnectionLock();
    const release = await lock.lock();
    const next = lock.lock();
    release();
    release();
    const releaseNext = await next;
    let third = false;
    const thirdTurn = lock.lock().then((r) => {
      third = true;
      r();
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(third).toBe(false);
    releaseNext();
    await thirdTurn;
    expect(third).toBe(true);
  });
});
