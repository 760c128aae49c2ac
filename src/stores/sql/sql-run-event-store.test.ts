/**
 * How the SQL event store writes a batch: power-of-two chunks (so the INSERT texts repeat and the
 * SQLite worker prepares each once), one read of the threads' seqs, and envelopes decoded only
 * when read. The contract itself is test/conformance/run-event-store.ts.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPostgresTestDatabase } from "../../../test/helpers/postgres.js";
import type { NewRunEvent } from "../../runtime/run-event-store.js";
import { openSqlDatabase, type SqlDatabase } from "./database.js";
import { chunkSizes, SqlRunEventStore } from "./sql-run-event-store.js";

describe("batch chunking", () => {
  it("cuts any batch into power-of-two chunks of at most 64 rows on SQLite, largest first", () => {
    expect(chunkSizes(150)).toEqual([64, 64, 16, 4, 2]);
    expect(chunkSizes(1)).toEqual([1]);
    expect(chunkSizes(0)).toEqual([]);
    expect(chunkSizes(1300)).toEqual([...Array<number>(20).fill(64), 16, 4]);
  });

  it("cuts at most 512 rows per chunk where asked (PostgreSQL)", () => {
    expect(chunkSizes(1300, 512)).toEqual([512, 512, 256, 16, 4]);
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
