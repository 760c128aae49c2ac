import { describe, expect, it } from "vitest";
import { ValidationError } from "../../core/errors.js";
import type { NewRunEvent, RunEvent } from "../../ports/run-event-store.js";
import { MemoryRunEventStore } from "./run-event-store.js";

const event = (threadId: string, fields: Partial<NewRunEvent> = {}): NewRunEvent => ({
  thread_id: threadId,
  run_id: "r1",
  event_type: "run.start",
  category: "trace",
  ...fields,
});

describe("MemoryRunEventStore", () => {
  it("keeps its own copy of what it is given and of what it returns", async () => {
    const store = new MemoryRunEventStore();
    const input = event("t1", { content: { text: "hi" }, metadata: { tags: ["a"] } });
    const written = await store.put(input);
    (input.content as { text: string }).text = "changed by caller";
    (written.content as { text: string }).text = "changed by reader";
    written.metadata.tags = [];
    const [stored] = await store.listEvents("t1", "r1");
    expect(stored).toMatchObject({ content: { text: "hi" }, metadata: { tags: ["a"] } });
  });

  it("a batch spanning threads numbers each thread contiguously", async () => {
    const store = new MemoryRunEventStore();
    await store.put(event("t1"));
    const written = await store.putBatch([event("t1"), event("t2"), event("t1"), event("t2")]);
    expect(written.map((e) => [e.thread_id, e.seq])).toEqual([
      ["t1", 2],
      ["t2", 1],
      ["t1", 3],
      ["t2", 2],
    ]);
  });

  it("a batch holding a value it cannot copy writes nothing", async () => {
    const store = new MemoryRunEventStore();
    const batch = [event("t1"), event("t2", { content: { callback: () => 1 } })];
    await expect(store.putBatch(batch)).rejects.toBeInstanceOf(ValidationError);
    expect(await store.listEvents("t1", "r1")).toEqual([]);
  });

  it("lets a subclass inject faults around putBatch and putIfAbsent", async () => {
    class LosesAcks extends MemoryRunEventStore {
      override async putBatch(events: readonly NewRunEvent[]): Promise<RunEvent[]> {
        await super.putBatch(events);
        throw new Error("ack lost");
      }
      override async putIfAbsent(e: NewRunEvent) {
        const result = await super.putIfAbsent(e);
        return { ...result, created: false };
      }
    }
    const store = new LosesAcks();
    await expect(store.putBatch([event("t1")])).rejects.toThrow("ack lost");
    expect(await store.listEvents("t1", "r1")).toHaveLength(1);
    const terminal = await store.putIfAbsent(event("t1", { event_type: "run.terminal" }));
    expect(terminal).toMatchObject({ created: false, event: { seq: 2 } });
  });
});
