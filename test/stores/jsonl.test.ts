import { appendFile, mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ValidationError } from "../../src/core/errors.js";
import { JsonlRunEventStore } from "../../src/stores/jsonl/run-event-store.js";
import { MemoryRunStore } from "../../src/stores/memory/run-store.js";
import { describeRunEventStore } from "../conformance/run-event-store.js";
import { newId } from "../conformance/run-store.js";

async function tempDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), "fawn-jsonl-"));
}

describeRunEventStore("jsonl", async () => {
  const dir = await tempDir();
  const runs = new MemoryRunStore();
  const store = new JsonlRunEventStore(dir, { owners: runs });
  return {
    store,
    runs,
    cleanup: async () => {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
});

describe("JsonlRunEventStore", () => {
  const dirs: string[] = [];
  async function freshDir(): Promise<string> {
    const dir = await tempDir();
    dirs.push(dir);
    return dir;
  }

  afterEach(async () => {
    await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  });

  const event = (threadId: string, runId: string, eventType = "run.start") => ({
    thread_id: threadId,
    run_id: runId,
    event_type: eventType,
    category: "trace",
  });

  it("lays events out as one JSON line each in threads/{thread}/runs/{run}.jsonl", async () => {
    const dir = await freshDir();
    const store = new JsonlRunEventStore(dir);
    const [threadId, runId] = ["thread-1", "run-1"];
    await store.putBatch([event(threadId, runId), { ...event(threadId, runId), user_id: "alice" }]);
    const text = await readFile(join(dir, "threads", threadId, "runs", `${runId}.jsonl`), "utf8");
    const lines = text
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines).toMatchObject([
      { seq: 1, user_id: null },
      { seq: 2, user_id: "alice" },
    ]);
  });

  it("a new instance on the same directory continues each thread's seqs", async () => {
    const dir = await freshDir();
    const [threadA, threadB, runA, runB] = [newId(), newId(), newId(), newId()];
    const first = new JsonlRunEventStore(dir);
    await first.putBatch([event(threadA, runA), event(threadA, runB), event(threadA, runA)]);
    await first.put(event(threadB, runA));
    await first.close();

    const second = new JsonlRunEventStore(dir);
    expect((await second.put(event(threadA, runB))).seq).toBe(4);
    expect((await second.put(event(threadB, runB))).seq).toBe(2);
    const created = await second.putIfAbsent(event(threadA, runA, "run.start"));
    expect(created).toMatchObject({ created: false, event: { seq: 1 } });
  });

  it("cuts a torn last line left by a crash before appending again", async () => {
    const dir = await freshDir();
    const [threadId, runId] = [newId(), newId()];
    const file = join(dir, "threads", threadId, "runs", `${runId}.jsonl`);
    await new JsonlRunEventStore(dir).put(event(threadId, runId));
    await appendFile(file, '{"thread_id":"torn');

    const store = new JsonlRunEventStore(dir);
    expect(await store.listEvents(threadId, runId)).toHaveLength(1);
    expect((await store.put(event(threadId, runId))).seq).toBe(2);
    expect((await store.listEvents(threadId, runId)).map((e) => e.seq)).toEqual([1, 2]);
  });

  it("rejects ids that are not safe path segments, writing nothing", async () => {
    const dir = await freshDir();
    const store = new JsonlRunEventStore(dir);
    for (const [threadId, runId] of [
      ["../escape", "run"],
      ["thread", "a/b"],
      ["x".repeat(65), "run"],
      ["", "run"],
    ]) {
      await expect(store.put(event(threadId ?? "", runId ?? ""))).rejects.toBeInstanceOf(
        ValidationError,
      );
    }
    await expect(store.listEvents("..", "run")).rejects.toBeInstanceOf(ValidationError);
    await expect(store.deleteByThread("a/b")).rejects.toBeInstanceOf(ValidationError);
  });

  it("content JSON cannot hold is a ValidationError and writes nothing", async () => {
    const dir = await freshDir();
    const store = new JsonlRunEventStore(dir);
    const [threadId, runId] = [newId(), newId()];
    const batch = [event(threadId, runId), { ...event(threadId, runId), content: { n: 1n } }];
    await expect(store.putBatch(batch)).rejects.toBeInstanceOf(ValidationError);
    expect(await store.listEvents(threadId, runId)).toEqual([]);
  });

  it("a failed batch leaves no partial file and no used seqs", async () => {
    const dir = await freshDir();
    const store = new JsonlRunEventStore(dir);
    const [threadId, runA, runB] = [newId(), newId(), newId()];
    await store.put(event(threadId, runA));
    // A directory where runB's file should go makes that append fail after runA's succeeded.
    const blocker = join(dir, "threads", threadId, "runs", `${runB}.jsonl`);
    await mkdir(blocker);
    await expect(
      store.putBatch([event(threadId, runA, "a.second"), event(threadId, runB)]),
    ).rejects.toThrow();
    expect((await store.listEvents(threadId, runA)).map((e) => e.event_type)).toEqual([
      "run.start",
    ]);
    await rm(blocker, { recursive: true });
    expect((await store.put(event(threadId, runB))).seq).toBe(2);
  });
});
