import { describe, expect, it } from "vitest";
import { KeyedMutex } from "./keyed-mutex.js";

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((res) => {
    resolve = res;
  });
  return { promise, resolve };
}

describe("KeyedMutex", () => {
  it("serializes callers of the same key", async () => {
    const locks = new KeyedMutex<string>();
    const order: string[] = [];
    const gate = deferred();
    const first = locks.runExclusive("t1", async () => {
      await gate.promise;
      order.push("first");
    });
    const second = locks.runExclusive("t1", () => {
      order.push("second");
    });
    expect(locks.isLocked("t1")).toBe(true);
    gate.resolve();
    await Promise.all([first, second]);
    expect(order).toEqual(["first", "second"]);
  });

  it("lets different keys run at the same time", async () => {
    const locks = new KeyedMutex<string>();
    const gate = deferred();
    const blocked = locks.runExclusive("t1", () => gate.promise);
    await expect(locks.runExclusive("t2", async () => "free")).resolves.toBe("free");
    gate.resolve();
    await blocked;
  });

  it("removes an entry once nobody holds or waits for it", async () => {
    const locks = new KeyedMutex<string>();
    const gate = deferred();
    const first = locks.runExclusive("t1", () => gate.promise);
    const second = locks.runExclusive("t1", () => undefined);
    expect(locks.size).toBe(1);
    gate.resolve();
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

    const gate = deferred();
    const holder = locks.runExclusive("t1", () => gate.promise);
    const controller = new AbortController();
    const waiter = locks.runExclusive("t1", () => undefined, { signal: controller.signal });
    controller.abort(new Error("gave up"));
    await expect(waiter).rejects.toThrow("gave up");
    gate.resolve();
    await holder;
    expect(locks.size).toBe(0);
  });
});
