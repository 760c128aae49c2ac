import { describe, expect, it } from "vitest";
import { RunSlots } from "./run-slots.js";

const never = new AbortController().signal;
const turn = () => new Promise((resolve) => setImmediate(resolve));

describe("RunSlots", () => {
  it("lets `limit` runs in, the next when one ends, in arrival order", async () => {
    const slots = new RunSlots(2);
    const first = await slots.acquire(never);
    const second = await slots.acquire(never);
    const order: string[] = [];
    const third = slots.acquire(never).then((release) => {
      order.push("third");
      return release;
    });
    const fourth = slots.acquire(never).then((release) => {
      order.push("fourth");
      return release;
    });
    await turn();
    expect(order).toEqual([]);
    expect(slots.queued).toBe(2);
    first();
    await turn();
    expect(order).toEqual(["third"]);
    expect(slots.inUse).toBe(2);
    second();
    await turn();
    expect(order).toEqual(["third", "fourth"]);
    (await third)();
    (await fourth)();
    expect(slots.inUse).toBe(0);
  });

  it("a run cancelled while it waits leaves the queue; a second release frees nothing more", async () => {
    const slots = new RunSlots(1);
    const held = await slots.acquire(never);
    const cancelled = new AbortController();
    const waiting = slots.acquire(cancelled.signal);
    const next = slots.acquire(never);
    cancelled.abort(new Error("cancelled by the user"));
    await expect(waiting).rejects.toThrow("cancelled by the user");
    expect(slots.queued).toBe(1);
    held();
    held();
    const release = await next;
    expect(slots.inUse).toBe(1);
    let more = false;
    void slots.acquire(never).then(() => {
      more = true;
    });
    await turn();
    expect(more).toBe(false);
    release();
    await turn();
    expect(more).toBe(true);
  });

  it("0 is no limit, and an aborted signal never takes a slot", async () => {
    const unlimited = new RunSlots(0);
    const releases = await Promise.all(Array.from({ length: 50 }, () => unlimited.acquire(never)));
    expect(unlimited.inUse).toBe(50);
    for (const release of releases) release();
    expect(unlimited.inUse).toBe(0);
    const one = new RunSlots(1);
    const held = await one.acquire(never);
    await expect(one.acquire(AbortSignal.abort(new Error("gone")))).rejects.toThrow("gone");
    expect(one.queued).toBe(0);
    held();
  });
});
