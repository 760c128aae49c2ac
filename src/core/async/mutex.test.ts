import { describe, expect, it } from "vitest";
import { Latch } from "../../../test/helpers/latch.js";
import { Mutex } from "./mutex.js";

describe("Mutex", () => {
  it("never lets two critical sections overlap", async () => {
    const mutex = new Mutex();
    let inside = 0;
    let maxInside = 0;
    const section = async (): Promise<void> => {
      inside += 1;
      maxInside = Math.max(maxInside, inside);
      await new Promise((resolve) => setImmediate(resolve));
      inside -= 1;
    };
    await Promise.all(Array.from({ length: 10 }, () => mutex.runExclusive(section)));
    expect(maxInside).toBe(1);
    expect(mutex.isLocked).toBe(false);
  });

  it("hands the lock over in arrival order", async () => {
    const mutex = new Mutex();
    const order: number[] = [];
    const gate = new Latch();
    const first = mutex.runExclusive(async () => {
      await gate.wait();
      order.push(0);
    });
    const rest = [1, 2, 3].map((n) => mutex.runExclusive(() => order.push(n)));
    expect(mutex.pending).toBe(3);
    gate.set();
    await Promise.all([first, ...rest]);
    expect(order).toEqual([0, 1, 2, 3]);
  });

  it("returns the section's value and releases after a throw", async () => {
    const mutex = new Mutex();
    const failure = new Error("inside");
    await expect(
      mutex.runExclusive(() => {
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(mutex.isLocked).toBe(false);
    await expect(mutex.runExclusive(async () => "ok")).resolves.toBe("ok");
  });

  it("drops a waiter whose signal aborts, without giving it the lock", async () => {
    const mutex = new Mutex();
    const gate = new Latch();
    const holder = mutex.runExclusive(() => gate.wait());
    const controller = new AbortController();
    let ran = false;
    const waiter = mutex.runExclusive(
      () => {
        ran = true;
      },
      { signal: controller.signal },
    );
    const reason = new Error("gave up");
    controller.abort(reason);
    await expect(waiter).rejects.toBe(reason);
    expect(mutex.pending).toBe(0);
    gate.set();
    await holder;
    expect(ran).toBe(false);
    expect(mutex.isLocked).toBe(false);
  });

  it("rejects at once for an already aborted signal", async () => {
    const mutex = new Mutex();
    const reason = new Error("too late");
    await expect(mutex.runExclusive(() => 1, { signal: AbortSignal.abort(reason) })).rejects.toBe(
      reason,
    );
    expect(mutex.isLocked).toBe(false);
  });
});
