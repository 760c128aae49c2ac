/**
 * The RunEventStore contract as executable spec, shared by every event store adapter. Each test
 * works on its own random thread ids, so a shared database works. Adapters may add metadata keys,
 * so metadata is compared with `toMatchObject`.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConflictError, OwnershipLostError, ValidationError } from "../../src/core/errors.js";
import type {
  ListEventsOptions,
  ListMessagesOptions,
  NewRunEvent,
  RunEvent,
  RunEventStore,
} from "../../src/ports/run-event-store.js";
import type { RunStore } from "../../src/ports/run-store.js";
import { createOwnedRun, OWNER, PEER } from "./owned-run.js";
import { at, newId } from "./run-store.js";

export interface RunEventStoreFixture {
  store: RunEventStore;
  /** The run rows the store's write fence reads (its paired run store); none: fence cases skip. */
  runs?: RunStore;
  /** Defaults to `store.close()`. */
  cleanup?: () => Promise<void>;
}

/** A promise plus the function that settles it, for pausing a writer at a chosen point. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open: () => void = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

const seqsOf = (events: RunEvent[]) => events.map((event) => event.seq);
const typesOf = (events: RunEvent[]) => events.map((event) => event.event_type);

export function describeRunEventStore(
  name: string,
  makeStore: () => Promise<RunEventStoreFixture>,
): void {
  describe(`RunEventStore contract: ${name}`, () => {
    let fixture: RunEventStoreFixture;
    let store: RunEventStore;

    beforeEach(async () => {
      fixture = await makeStore();
      store = fixture.store;
    });

    afterEach(async () => {
      await (fixture.cleanup ? fixture.cleanup() : fixture.store.close());
    });

    function event(
      threadId: string,
      runId: string,
      fields: Partial<NewRunEvent> = {},
    ): NewRunEvent {
      return {
        thread_id: threadId,
        run_id: runId,
        event_type: "run.start",
        category: "trace",
        ...fields,
      };
    }

    function message(threadId: string, runId: string, text: string, userId?: string): NewRunEvent {
      return event(threadId, runId, {
        event_type: "llm.ai.response",
        category: "message",
        content: { type: "ai", content: text },
        user_id: userId ?? null,
      });
    }

    describe("writes and sequence", () => {
      it("put stores the envelope and starts a fresh thread at seq 1", async () => {
        const [threadId, runId] = [newId(), newId()];
        const written = await store.put(
          event(threadId, runId, {
            content: { chain: "lead_agent" },
            metadata: { caller: "test" },
            created_at: at(5),
            user_id: "alice",
          }),
        );
        expect(written).toMatchObject({
          thread_id: threadId,
          run_id: runId,
          seq: 1,
          event_type: "run.start",
          category: "trace",
          content: { chain: "lead_agent" },
          metadata: { caller: "test" },
          user_id: "alice",
        });
        expect(Date.parse(written.created_at)).toBe(Date.parse(at(5)));
        const [listed] = await store.listEvents(threadId, runId);
        expect(listed).toMatchObject({ ...written, created_at: expect.any(String) });
        expect(Date.parse(listed?.created_at ?? "")).toBe(Date.parse(at(5)));
      });

      it("put fills defaults: empty content, empty metadata, no owner, a zoned timestamp", async () => {
        const written = await store.put(event(newId(), newId()));
        expect(written.content).toBe("");
        expect(written.metadata).toMatchObject({});
        expect(written.user_id).toBeNull();
        expect(written.created_at).toMatch(/(?:Z|[+-]\d\d:?\d\d)$/);
        expect(Number.isNaN(Date.parse(written.created_at))).toBe(false);
      });

      it("seq increases strictly per thread and independently across threads", async () => {
        const [a, b, run] = [newId(), newId(), newId()];
        const seqs: Record<string, number[]> = { [a]: [], [b]: [] };
        for (const threadId of [a, b, a, a, b]) {
          seqs[threadId]?.push((await store.put(event(threadId, run))).seq);
        }
        expect(seqs[a]).toEqual([1, 2, 3]);
        expect(seqs[b]).toEqual([1, 2]);
      });

      it("putBatch assigns contiguous seqs in input order", async () => {
        const [threadId, runId] = [newId(), newId()];
        await store.put(event(threadId, runId));
        const batch = await store.putBatch(
          ["a.one", "a.two", "a.three"].map((type) => event(threadId, runId, { event_type: type })),
        );
        expect(seqsOf(batch)).toEqual([2, 3, 4]);
        expect(typesOf(batch)).toEqual(["a.one", "a.two", "a.three"]);
        expect(seqsOf(await store.listEvents(threadId, runId))).toEqual([1, 2, 3, 4]);
        expect(await store.putBatch([])).toEqual([]);
      });

      it("putBatch is all-or-nothing when one event is invalid", async () => {
        const [threadId, runId] = [newId(), newId()];
        const batch = [
          event(threadId, runId),
          event(threadId, runId, { event_type: "x".repeat(33) }),
        ];
        await expect(store.putBatch(batch)).rejects.toBeInstanceOf(ValidationError);
        expect(await store.listEvents(threadId, runId)).toEqual([]);
        expect((await store.put(event(threadId, runId))).seq).toBe(1);
      });

      it("50 concurrent puts get 50 distinct contiguous seqs", async () => {
        const [threadId, runId] = [newId(), newId()];
        const written = await Promise.all(
          Array.from({ length: 50 }, (_, i) =>
            store.put(event(threadId, runId, { content: `e${i}` })),
          ),
        );
        const seqs = seqsOf(written).sort((x, y) => x - y);
        expect(seqs).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
        expect(seqsOf(await store.listEvents(threadId, runId))).toEqual(seqs);
      });

      it("rejects an event type over 32 or a category over 16 characters, writing nothing", async () => {
        const [threadId, runId] = [newId(), newId()];
        const invalid = [
          { event_type: "x".repeat(33) },
          { event_type: "" },
          { category: "c".repeat(17) },
          { category: "" },
        ];
        for (const fields of invalid) {
          await expect(store.put(event(threadId, runId, fields))).rejects.toBeInstanceOf(
            ValidationError,
          );
          await expect(store.putIfAbsent(event(threadId, runId, fields))).rejects.toBeInstanceOf(
            ValidationError,
          );
        }
        expect(await store.listEvents(threadId, runId)).toEqual([]);
        const longest = { event_type: "t".repeat(32), category: "c".repeat(16) };
        expect((await store.put(event(threadId, runId, longest))).seq).toBe(1);
      });
    });

    describe("round trips", () => {
      const contents: Array<[string, unknown]> = [
        ["a string", "plain text"],
        ["an object", { type: "ai", nested: { list: [1, { b: null }] }, flag: true }],
        ["an array", [1, "two", { three: 3 }]],
        ["a number", 42],
        ["unicode text", "héllo wörld — 你好 🌍"],
      ];
      for (const [label, content] of contents) {
        it(`keeps ${label} as content`, async () => {
          const [threadId, runId] = [newId(), newId()];
          expect((await store.put(event(threadId, runId, { content }))).content).toEqual(content);
          const [batched] = await store.putBatch([event(threadId, runId, { content })]);
          expect(batched?.content).toEqual(content);
          const listed = await store.listEvents(threadId, runId);
          expect(listed.map((e) => e.content)).toEqual([content, content]);
        });
      }

      it("keeps metadata", async () => {
        const [threadId, runId] = [newId(), newId()];
        const metadata = {
          caller: "lead_agent",
          usage: { input_tokens: 3 },
          tags: ["a", "b"],
          n: 1.5,
        };
        expect((await store.put(event(threadId, runId, { metadata }))).metadata).toMatchObject(
          metadata,
        );
        const [listed] = await store.listEvents(threadId, runId);
        expect(listed?.metadata).toMatchObject(metadata);
      });

      it("stores and returns the owner on every write path", async () => {
        const [threadId, runId] = [newId(), newId()];
        expect((await store.put(event(threadId, runId, { user_id: "alice" }))).user_id).toBe(
          "alice",
        );
        const [batched] = await store.putBatch([event(threadId, runId, { user_id: "bob" })]);
        expect(batched?.user_id).toBe("bob");
        const single = await store.putIfAbsent(
          event(threadId, runId, {
            event_type: "run.delivery",
            category: "outputs",
            user_id: "carol",
          }),
        );
        expect(single.event.user_id).toBe("carol");
        const listed = await store.listEvents(threadId, runId);
        expect(listed.map((e) => e.user_id)).toEqual(["alice", "bob", "carol"]);
      });
    });

    describe("putIfAbsent", () => {
      it("is a run-scoped singleton by event type, whatever the other fields", async () => {
        const [threadId, runId] = [newId(), newId()];
        const terminal = event(threadId, runId, {
          event_type: "run.terminal",
          content: { status: "success" },
          user_id: "alice",
        });
        const first = await store.putIfAbsent(terminal);
        expect(first.created).toBe(true);
        expect(first.event).toMatchObject({
          seq: 1,
          content: { status: "success" },
          user_id: "alice",
        });

        const again = await store.putIfAbsent({
          ...terminal,
          category: "outputs",
          content: { status: "error" },
          metadata: { recovered: true },
          user_id: "bob",
        });
        expect(again.created).toBe(false);
        expect(again.event).toMatchObject({
          seq: 1,
          category: "trace",
          content: { status: "success" },
          user_id: "alice",
        });

        expect((await store.putIfAbsent({ ...terminal, run_id: newId() })).created).toBe(true);
        expect((await store.putIfAbsent({ ...terminal, event_type: "run.delivery" })).created).toBe(
          true,
        );
        expect(typesOf(await store.listEvents(threadId, runId))).toEqual([
          "run.terminal",
          "run.delivery",
        ]);
      });

      it("sees events written by put and putBatch", async () => {
        const [threadId, runId] = [newId(), newId()];
        const written = await store.put(event(threadId, runId, { event_type: "run.delivery" }));
        const result = await store.putIfAbsent(
          event(threadId, runId, { event_type: "run.delivery" }),
        );
        expect(result).toMatchObject({ created: false, event: { seq: written.seq } });
      });

      it("a passing guard writes; a failing guard is a conflict and writes nothing", async () => {
        const [threadId, runId] = [newId(), newId()];
        const passed = await store.putIfAbsent(
          event(threadId, runId, { event_type: "run.delivery" }),
          {
            guard: async () => true,
          },
        );
        expect(passed.created).toBe(true);
        const fenced = event(threadId, runId, { event_type: "run.terminal" });
        await expect(
          store.putIfAbsent(fenced, { guard: async () => false }),
        ).rejects.toBeInstanceOf(ConflictError);
        expect(await store.listEvents(threadId, runId, { eventTypes: ["run.terminal"] })).toEqual(
          [],
        );
        expect((await store.put(event(threadId, runId))).seq).toBe(2);
      });

      it("concurrent calls create exactly one event", async () => {
        const [threadId, runId] = [newId(), newId()];
        const results = await Promise.all(
          Array.from({ length: 10 }, (_, i) =>
            store.putIfAbsent(
              event(threadId, runId, { event_type: "run.terminal", content: { attempt: i } }),
              { guard: async () => true },
            ),
          ),
        );
        expect(results.filter((result) => result.created)).toHaveLength(1);
        expect(new Set(results.map((result) => result.event.seq)).size).toBe(1);
        expect(await store.listEvents(threadId, runId)).toHaveLength(1);
      });

      for (const deletion of ["deleteByThread", "deleteByRun"] as const) {
        it(`a guarded write and a concurrent ${deletion} never leave the event behind`, async () => {
          const [threadId, runId] = [newId(), newId()];
          await store.put(message(threadId, runId, "before"));
          const entered = gate();
          const resume = gate();
          const publish = store.putIfAbsent(
            event(threadId, runId, { event_type: "run.terminal" }),
            {
              guard: async () => {
                entered.open();
                await resume.opened;
                return true;
              },
            },
          );
          await entered.opened;
          // The guard is running under the thread's write lock: the deletion must wait for it.
          const deleted =
            deletion === "deleteByThread"
              ? store.deleteByThread(threadId)
              : store.deleteByRun(threadId, runId);
          await new Promise((resolve) => setImmediate(resolve));
          resume.open();
          expect((await publish).created).toBe(true);
          expect(await deleted).toBe(2);
          expect(await store.listEvents(threadId, runId)).toEqual([]);
          expect(await store.countMessages(threadId)).toBe(0);
        });
      }
    });

    describe("reads", () => {
      it("listEvents filters by type, task, cursor, limit and owner, ascending", async () => {
        const [threadId, runId, otherRun] = [newId(), newId(), newId()];
        const put = (fields: Partial<NewRunEvent>, run = runId) =>
          store.put(event(threadId, run, fields));
        const start = await put({ user_id: "alice" });
        await put({ event_type: "run.start" }, otherRun);
        const sub1 = await put({
          event_type: "subagent.start",
          category: "subagent",
          metadata: { task_id: "t1" },
        });
        const step = await put({
          event_type: "subagent.step",
          category: "subagent",
          metadata: { task_id: "t2" },
        });
        const ai = await put({
          event_type: "llm.ai.response",
          category: "message",
          user_id: "bob",
        });
        const end = await put({
          event_type: "subagent.end",
          category: "subagent",
          metadata: { task_id: "t1" },
          user_id: "alice",
        });
        const list = (options: ListEventsOptions = {}) =>
          store.listEvents(threadId, runId, options).then(seqsOf);

        expect(await list()).toEqual(seqsOf([start, sub1, step, ai, end]));
        expect(await list({ eventTypes: ["subagent.start", "subagent.end"] })).toEqual(
          seqsOf([sub1, end]),
        );
        expect(await list({ taskId: "t1" })).toEqual(seqsOf([sub1, end]));
        expect(await list({ afterSeq: sub1.seq })).toEqual(seqsOf([step, ai, end]));
        expect(await list({ limit: 2 })).toEqual(seqsOf([start, sub1]));
        expect(await list({ afterSeq: sub1.seq, limit: 1 })).toEqual(seqsOf([step]));
        expect(await list({ userId: "alice" })).toEqual(seqsOf([start, end]));
        expect(await list({ userId: null })).toHaveLength(5);
        expect(await store.listEvents(threadId, newId())).toEqual([]);
        expect(await store.listEvents(newId(), runId)).toEqual([]);
      });

      it("listMessages windows message rows and always answers ascending", async () => {
        const [threadId, runA, runB] = [newId(), newId(), newId()];
        const messages: RunEvent[] = [];
        for (const [index, runId] of [runA, runB, runA, runB, runA, runA].entries()) {
          await store.put(event(threadId, runId, { event_type: "llm.error", category: "trace" }));
          messages.push(
            await store.put(message(threadId, runId, `m${index}`, index < 2 ? "alice" : "bob")),
          );
        }
        const [m0, m1, m2, m3, m4, m5] = messages.map((m) => m.seq);
        const window = (options: ListMessagesOptions = {}) =>
          store.listMessages(threadId, options).then(seqsOf);

        expect(await window()).toEqual([m0, m1, m2, m3, m4, m5]);
        expect(await window({ limit: 3 })).toEqual([m3, m4, m5]);
        expect(await window({ beforeSeq: m4, limit: 2 })).toEqual([m2, m3]);
        expect(await window({ afterSeq: m1, limit: 2 })).toEqual([m2, m3]);
        expect(await window({ afterSeq: m4 })).toEqual([m5]);
        expect(await window({ userId: "alice" })).toEqual([m0, m1]);
        const byRun = (options: ListMessagesOptions = {}) =>
          store.listMessagesByRun(threadId, runA, options).then(seqsOf);
        expect(await byRun()).toEqual([m0, m2, m4, m5]);
        expect(await byRun({ limit: 2 })).toEqual([m4, m5]);
        expect(await byRun({ beforeSeq: m4, limit: 1 })).toEqual([m2]);
        expect(await byRun({ afterSeq: m0, limit: 2 })).toEqual([m2, m4]);
        const listed = await store.listMessages(threadId);
        expect(listed.every((row) => row.category === "message")).toBe(true);
        expect(await store.listMessages(newId())).toEqual([]);
      });

      it("listMessages returns the latest 50 by default", async () => {
        const [threadId, runId] = [newId(), newId()];
        await store.putBatch(
          Array.from({ length: 60 }, (_, i) => message(threadId, runId, `m${i}`)),
        );
        const latest = await store.listMessages(threadId);
        expect(seqsOf(latest)).toEqual(Array.from({ length: 50 }, (_, i) => i + 11));
      });

      it("countMessages counts the thread's message rows", async () => {
        const [threadId, runA, runB] = [newId(), newId(), newId()];
        await store.putBatch([
          message(threadId, runA, "one"),
          event(threadId, runA),
          message(threadId, runA, "two"),
        ]);
        await store.put(message(threadId, runB, "three", "bob"));
        expect(await store.countMessages(threadId)).toBe(3);
        expect(await store.countMessages(newId())).toBe(0);
      });

      it("evidenceReceipt reports the run's highest seq and event count, unscoped", async () => {
        const [threadId, runId, otherRun] = [newId(), newId(), newId()];
        expect(await store.evidenceReceipt(threadId, runId)).toEqual({
          upperEventSeq: 0,
          eventCount: 0,
        });
        await store.put(event(threadId, runId, { user_id: "alice" }));
        await store.put(message(threadId, runId, "hi", "bob"));
        const last = await store.put(event(threadId, runId, { event_type: "run.terminal" }));
        await store.put(event(threadId, otherRun));
        expect(await store.evidenceReceipt(threadId, runId)).toEqual({
          upperEventSeq: last.seq,
          eventCount: 3,
        });
      });
    });

    describe("deletion", () => {
      it("deleteByThread removes every event of the thread and restarts its seq", async () => {
        const [threadId, other, runId] = [newId(), newId(), newId()];
        await store.putBatch([message(threadId, runId, "a"), event(threadId, runId)]);
        await store.put(event(threadId, newId()));
        await store.put(event(other, runId));
        expect(await store.deleteByThread(threadId)).toBe(3);
        expect(await store.listEvents(threadId, runId)).toEqual([]);
        expect(await store.listMessages(threadId)).toEqual([]);
        expect(await store.countMessages(threadId)).toBe(0);
        expect(await store.listEvents(other, runId)).toHaveLength(1);
        expect(await store.deleteByThread(threadId)).toBe(0);
        expect((await store.put(event(threadId, runId))).seq).toBe(1);
      });

      it("deleteByThread with an owner removes only that owner's events", async () => {
        const [threadId, runId] = [newId(), newId()];
        await store.put(message(threadId, runId, "a", "alice"));
        await store.put(message(threadId, runId, "b", "bob"));
        await store.put(message(threadId, runId, "c", "alice"));
        expect(await store.deleteByThread(threadId, { userId: "mallory" })).toBe(0);
        expect(await store.deleteByThread(threadId, { userId: "alice" })).toBe(2);
        const left = await store.listEvents(threadId, runId);
        expect(left.map((e) => e.user_id)).toEqual(["bob"]);
        expect((await store.put(event(threadId, runId))).seq).toBeGreaterThan(left[0]?.seq ?? 0);
      });

      it("deleteByRun removes one run's events, owner-scoped, and later seqs stay increasing", async () => {
        const [threadId, runA, runB] = [newId(), newId(), newId()];
        await store.put(event(threadId, runA, { user_id: "alice" }));
        const kept = await store.put(event(threadId, runB, { user_id: "alice" }));
        await store.put(message(threadId, runA, "a", "alice"));
        expect(await store.deleteByRun(threadId, runA, { userId: "mallory" })).toBe(0);
        expect(await store.deleteByRun(threadId, runA, { userId: "alice" })).toBe(2);
        expect(await store.listEvents(threadId, runA)).toEqual([]);
        expect(await store.countMessages(threadId)).toBe(0);
        expect(seqsOf(await store.listEvents(threadId, runB))).toEqual([kept.seq]);
        expect(await store.deleteByRun(threadId, runA)).toBe(0);
        expect((await store.put(event(threadId, runB))).seq).toBeGreaterThan(kept.seq);
      });
    });

    describe("write fence (the run row's owner)", () => {
      it("a write fenced by another owner is refused and changes nothing", async (context) => {
        const runs = fixture.runs;
        if (!runs) return context.skip();
        const threadId = newId();
        const runId = await createOwnedRun(runs, threadId);
        const owner = { runId, workerId: OWNER };
        const written = await store.putBatch(
          [event(threadId, runId), event(threadId, runId, { event_type: "llm.human.input" })],
          { fence: owner },
        );
        expect(seqsOf(written)).toEqual([1, 2]);
        // A peer takes the run over: the row now names the peer.
        expect(
          await runs.claimForTakeover(runId, {
            now: at(60),
            graceSeconds: 0,
            error: "gone",
            workerId: PEER,
          }),
        ).toBe(true);
        const before = await store.listEvents(threadId, runId);
        const late = [
          event(threadId, runId, { event_type: "llm.error" }),
          event(threadId, runId, { event_type: "run.error" }),
        ];
        await expect(store.putBatch(late, { fence: owner })).rejects.toBeInstanceOf(
          OwnershipLostError,
        );
        await expect(
          store.put(event(threadId, runId, { event_type: "run.error" }), { fence: owner }),
        ).rejects.toBeInstanceOf(OwnershipLostError);
        const terminal = event(threadId, runId, { event_type: "run.terminal" });
        await expect(store.putIfAbsent(terminal, { fence: owner })).rejects.toBeInstanceOf(
          OwnershipLostError,
        );
        await expect(
          store.putIfAbsent(terminal, { fence: owner, guard: async () => true }),
        ).rejects.toBeInstanceOf(OwnershipLostError);
        expect(await store.listEvents(threadId, runId)).toEqual(before);
        // The new owner's fenced writes commit, right after the events written before the claim.
        const recovered = await store.putIfAbsent(terminal, { fence: { runId, workerId: PEER } });
        expect(recovered).toMatchObject({ created: true, event: { seq: 3 } });
        expect(typesOf(await store.listEvents(threadId, runId)).at(-1)).toBe("run.terminal");
      });

      it("a fenced write for a run without a row is refused", async (context) => {
        if (!fixture.runs) return context.skip();
        const [threadId, runId] = [newId(), newId()];
        const fence = { runId, workerId: OWNER };
        await expect(store.putBatch([event(threadId, runId)], { fence })).rejects.toBeInstanceOf(
          OwnershipLostError,
        );
        expect(await store.listEvents(threadId, runId)).toEqual([]);
      });
    });
  });
}
