/**
 * How the SQL event store writes a batch: power-of-two chunks (so the INSERT texts repeat and the
 * SQLite worker prepares each once), one read of the threads' seqs, envelopes decoded only when
 * read, a thread's batches in call order, and a journal's pre-serialized events never serialized
 * or parsed again. The contract itself is test/conformance/run-event-store.ts.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createPostgresTestDatabase } from "../../../test/helpers/postgres.js";
import type { NewRunEvent } from "../../ports/run-event-store.js";
import { SerializedRunEvent } from "../../ports/serialized-run-event.js";
import { openSqlDatabase, type SqlDatabase } from "./database.js";
import { chunkSizes, postgresChunkSizes } from "./sql-event-statements.js";
import { SqlRunEventStore } from "./sql-run-event-store.js";

describe("batch chunking", () => {
  it("cuts any batch into power-of-two chunks of at most 64 rows on SQLite, largest first", () => {
    expect(chunkSizes(150)).toEqual([64, 64, 16, 4, 2]);
    expect(chunkSizes(1)).toEqual([1]);
    expect(chunkSizes(0)).toEqual([]);
    expect(chunkSizes(1300)).toEqual([...Array<number>(20).fill(64), 16, 4]);
  });

  it("cuts at most 512 rows per chunk where asked", () => {
    expect(chunkSizes(1300, 512)).toEqual([512, 512, 256, 16, 4]);
  });

  it("on PostgreSQL, cuts full 512-row chunks and the rest in one (a round trip each)", () => {
    expect(postgresChunkSizes(1300)).toEqual([512, 512, 276]);
    expect(postgresChunkSizes(1024)).toEqual([512, 512]);
    expect(postgresChunkSizes(7)).toEqual([7]);
    expect(postgresChunkSizes(0)).toEqual([]);
  });

  it("uses at most seven distinct statement shapes for every batch size up to 5,000", () => {
    const shapes = new Set<number>();
    for (let count = 1; count <= 5_000; count++) {
      const sizes = chunkSizes(count);
      expect(sizes.reduce((sum, size) => sum + size, 0)).toBe(count);
      for (const size of sizes) shapes.add(size);
    }
    expect(shapes.size).toBeLessThanOrEqual(7);
  });
});

function events(threadId: string, count: number, offset = 0): NewRunEvent[] {
  return Array.from({ length: count }, (_, index) => ({
    thread_id: threadId,
    run_id: `run-${threadId}`,
    event_type: "llm.ai.response",
    category: "message",
    content: { index: index + offset, text: "x".repeat(index % 7) },
    metadata: { caller: "lead_agent" },
  }));
}

function describeBatches(engine: string, open: () => Promise<SqlDatabase | null>): void {
  describe(`${engine}: multi-chunk batches`, () => {
    let database: SqlDatabase | null = null;
    beforeAll(async () => {
      database = await open();
    });
    afterAll(async () => {
      await database?.close();
    });

    it("writes a thread's batches in call order, even when the first is still encoding", async (ctx) => {
      if (database === null) return ctx.skip();
      const store = new SqlRunEventStore(database);
      const thread = `order-${Date.now()}`;
      // The first batch yields to the event loop while encoding; the second would finish first.
      const [first, second] = await Promise.all([
        store.putBatch(events(thread, 600)),
        store.putBatch(events(thread, 3, 600)),
      ]);
      expect(first.map((event) => event.seq)).toEqual(Array.from({ length: 600 }, (_, i) => i + 1));
      expect(second.map((event) => event.seq)).toEqual([601, 602, 603]);
      const listed = await store.listEvents(thread, `run-${thread}`, { limit: 1_000 });
      expect(listed.map((event) => (event.content as { index: number }).index)).toEqual(
        Array.from({ length: 603 }, (_, i) => i),
      );
    });

    it("a batch spanning several chunks and two threads gets contiguous seqs per thread", async (ctx) => {
      if (database === null) return ctx.skip();
      const store = new SqlRunEventStore(database);
      const [a, b] = [`a-${Date.now()}`, `b-${Date.now()}`];
      await store.put(events(a, 1)[0] as NewRunEvent);
      const batch = [...events(a, 700, 1), ...events(b, 37)].sort(
        (x, y) => (x.content as { index: number }).index - (y.content as { index: number }).index,
      );
      const written = await store.putBatch(batch);
      const seqsOf = (thread: string) =>
        written.filter((event) => event.thread_id === thread).map((event) => event.seq);
      expect(seqsOf(a)).toEqual(Array.from({ length: 700 }, (_, i) => i + 2));
      expect(seqsOf(b)).toEqual(Array.from({ length: 37 }, (_, i) => i + 1));
      const listed = await store.listEvents(a, `run-${a}`, { limit: 1_000 });
      expect(listed.map((event) => (event.content as { index: number }).index)).toEqual(
        Array.from({ length: 701 }, (_, i) => i),
      );
      // The returned envelope reads back like the stored row, once decoded on first access.
      expect(written[0]?.content).toEqual(listed.find((e) => e.seq === written[0]?.seq)?.content);
      expect(written[0]?.metadata).toEqual({ caller: "lead_agent" });
    });
  });
}

function serializedEvents(threadId: string, count: number): SerializedRunEvent[] {
  return Array.from(
    { length: count },
    (_, index) =>
      new SerializedRunEvent({
        thread_id: threadId,
        run_id: `run-${threadId}`,
        event_type: "llm.ai.response",
        category: "message",
        content: { index, text: "x".repeat(index % 7) },
        metadata: { caller: "lead_agent" },
        created_at: new Date().toISOString(),
        user_id: null,
      }),
  );
}

describe("sqlite: what a batch sends", () => {
  let database: SqlDatabase;
  let store: SqlRunEventStore;
  let trafficDir = "";
  beforeAll(async () => {
    trafficDir = await mkdtemp(join(tmpdir(), "fawn-event-traffic-"));
    database = await openSqlDatabase(`sqlite:${join(trafficDir, "events.db")}`, {
      countTraffic: true,
    });
    store = new SqlRunEventStore(database);
  });
  afterAll(async () => {
    await database.close();
    await rm(trafficDir, { recursive: true, force: true });
  });

  const traffic = () => {
    const counted = database.traffic();
    if (counted === null) throw new Error("traffic counting is off");
    return { ...counted };
  };

  it("one worker message and one transaction: the chunk INSERTs and one max-seq read", async () => {
    const before = traffic();
    const written = await store.putBatch(events(`t-${Date.now()}`, 150));
    const after = traffic();
    expect(written.map((event) => event.seq)).toEqual(Array.from({ length: 150 }, (_, i) => i + 1));
    // 150 rows = 64 + 64 + 16 + 4 + 2, then `select max(seq)`.
    expect(after.statements - before.statements).toBe(6);
    expect(after.transactions - before.transactions).toBe(1);
    expect(after.roundTrips - before.roundTrips).toBe(1);
  });

  it("a journal's events are neither serialized nor parsed again on the write path", async () => {
    const thread = `s-${Date.now()}`;
    const batch = serializedEvents(thread, 300);
    const stringify = vi.spyOn(JSON, "stringify");
    const parse = vi.spyOn(JSON, "parse");
    try {
      await store.putBatch(batch);
      expect(stringify).not.toHaveBeenCalled();
      expect(parse).not.toHaveBeenCalled();
    } finally {
      stringify.mockRestore();
      parse.mockRestore();
    }
    const listed = await store.listEvents(thread, `run-${thread}`, { limit: 1_000 });
    expect(listed).toHaveLength(300);
    expect(listed[8]?.content).toEqual({ index: 8, text: "x" });
    expect(listed[8]?.metadata).toEqual({ caller: "lead_agent" });
  });
});

let dir = "";
describeBatches("sqlite", async () => {
  dir = await mkdtemp(join(tmpdir(), "fawn-event-batches-"));
  return openSqlDatabase(`sqlite:${join(dir, "events.db")}`);
});
afterAll(async () => {
  if (dir !== "") await rm(dir, { recursive: true, force: true });
});

const postgres = await createPostgresTestDatabase("event_batches");
afterAll(async () => {
  await postgres?.drop();
});
describeBatches("postgres", async () => (postgres === null ? null : openSqlDatabase(postgres.url)));
