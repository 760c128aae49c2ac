import { describe, expect, it } from "vitest";
import { Latch } from "../../../test/helpers/latch.js";
import { KeyedMutex } from "./keyed-mutex.js";

describe("KeyedMutex", () => {
  it("serializes callers of the same key", async () => {
    const locks = new KeyedMutex<string>();
    const order: string[] = [];
    const gate = new Latch();
    const first = locks.runExclusive("t1", async () => {
      await gate.wait();
      order.push("first");
    });
    const second = locks.runExclusive("t1", () => {
      order.push("second");
    });
    expect(locks.isLocked("t1")).toBe(true);
    gate.set();
    await Promise.all([first, second]);
    expect(order).toEqual(["first", "second"]);
  });

  it("lets different keys run at the same time", async () => {
    const locks = new KeyedMutex<string>();
    const gate = new Latch();
    const blocked = locks.runExclusive("t1", () => gate.wait());
    await expect(locks.runExclusive("t2", async () => "free")).resolves.toBe("free");
    gate.set();
    await blocked;
  });

  it("removes an entry once nobody holds or waits for it", async () => {
    const locks = new KeyedMutex<string>();
    const gate = new Latch();
    const first = locks.runExclusive("t1", () => gate.wait());
    const second = locks.runExclusive("t1", () => undefined);
    expect(locks.size).toBe(1);
    gate.set();
    await Promise.all([first, second]);
    expect(locks.size).toBe(0);
    expect(locks.isLocked("t1")).toBe(false);
  });

  it("removes the entry after a throw and after an aborted wait", async () => {
    const locks = new KeyedMutex<string>();
    await expect(
      locks.runExclusive("t1", () => {
        throw new Error("x");
      }),
    ).rejects.toThrow("x");
    expect(locks.size).toBe(0);

    const gate = new Latch();
    const holder = locks.runExclusive("t1", () => gate.wait());
    const controller = new AbortController();
    const waiter = locks.runExclusive("t1", () => undefined, { signal: controller.signal });
    controller.abort(new Error("gave up"));
    await expect(waiter).rejects.toThrow("gave up");
    gate.set();
    await holder;
    expect(locks.size).toBe(0);
  });

  it("runExclusiveAll holds every key, taken in sorted order, so overlapping batches never deadlock", async () => {
    const locks = new KeyedMutex<string>();
    const gate = new Latch();
    const order: string[] = [];
    const first = locks.runExclusiveAll(["b", "a"], async () => {
      expect(locks.isLocked("a") && locks.isLocked("b")).toBe(true);
      await gate.wait();
      order.push("first");
    });
    const second = locks.runExclusiveAll(["a", "b", "a"], () => {
      order.push("second");
    });
    const other = await locks.runExclusiveAll(["c"], () => "free");
    gate.set();
    await Promise.all([first, second]);
    expect({ order, other }).toEqual({ order: ["first", "second"], other: "free" });
    await expect(locks.runExclusiveAll([], () => "none")).resolves.toBe("none");
    expect(locks.size).toBe(0);
  });
});
