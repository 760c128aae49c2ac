import { describe, expect, it } from "vitest";
import { ManualClock } from "../../core/clock.js";
import { MemoryThreadStore } from "./thread-store.js";

describe("MemoryThreadStore", () => {
  it("hands out copies and stamps updates with its clock", async () => {
    const clock = new ManualClock("2030-01-01T00:00:00.000Z");
    const store = new MemoryThreadStore({ clock });
    const { thread } = await store.create({
      thread_id: "t1",
      metadata: { tags: ["a"] },
      created_at: "2030-01-01T00:00:00.000Z",
    });
    thread.metadata.tags = [];
    expect((await store.get("t1"))?.metadata).toEqual({ tags: ["a"] });
    clock.advance(5000);
    const updated = await store.update("t1", { metadata: { b: 1 } });
    expect(updated?.updated_at).toBe("2030-01-01T00:00:05.000Z");
    expect(updated?.metadata).toEqual({ tags: ["a"], b: 1 });
  });
});
