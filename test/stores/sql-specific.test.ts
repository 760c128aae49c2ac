/**
 * Behaviour of the SQL layer itself, beyond the shared store contracts: the admission index at
 * the SQL level, migrations, cross-connection locking, and the SQLite worker's promise of never
 * blocking the event loop.
 */

import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withDeadline } from "../../src/core/async/deadline.js";
import { ConfigError, ConflictError, StoreError, ValidationError } from "../../src/core/errors.js";
import { emptyTokenTotals, type RunRow } from "../../src/ports/run-types.js";
import { openSqlDatabase, type SqlDatabase } from "../../src/stores/sql/database.js";
import { fawnMigrationProvider } from "../../src/stores/sql/migrations.js";
import { runRowToDb } from "../../src/stores/sql/run-row-codec.js";
import { isUniqueViolation } from "../../src/stores/sql/sql-errors.js";
import { SqlRunEventStore } from "../../src/stores/sql/sql-run-event-store.js";
import { createSqlStores } from "../../src/stores/sql/stores.js";
import { at, newId } from "../conformance/run-store.js";
import { createPostgresTestDatabase } from "../helpers/postgres.js";

function runRow(threadId: string, fields: Partial<RunRow> = {}): RunRow {
  return {
    ...emptyTokenTotals(),
    message_count: 0,
    first_human_message: null,
    last_ai_message: null,
    run_id: newId(),
    thread_id: threadId,
    assistant_id: null,
    user_id: null,
    status: "pending",
    operation_kind: "run",
    idempotency_key: null,
    model_name: null,
    multitask_strategy: "reject",
    on_disconnect: "cancel",
    metadata: {},
    kwargs: {},
    error: null,
    stop_reason: null,
    follow_up_to_run_id: null,
    queued: false,
    owner_worker_id: null,
    lease_expires_at: null,
    cancel_action: null,
    cancel_requested_at: null,
    evidence_seal_state: "pending",
    evidence_seal_error: null,
    evidence_upper_seq: null,
    evidence_event_count: null,
    created_at: at(0),
    updated_at: at(0),
    ...fields,
  };
}

async function insertRaw(database: SqlDatabase, row: RunRow): Promise<void> {
  await database.db.insertInto("runs").values(runRowToDb(row)).execute();
}

/** How many migrations this build defines (every open applies all of them, once). */
async function definedMigrations(database: SqlDatabase): Promise<number> {
  return Object.keys(await fawnMigrationProvider(database.dialect).getMigrations()).length;
}

async function migrationCount(database: SqlDatabase): Promise<number> {
  const result = await sql<{
    count: number | string;
  }>`select count(*) as count from fawn_migration`.execute(database.db);
  return Number(result.rows[0]?.count);
}

/** Checks shared by both engines; `open` opens another handle on the same database. */
function describeEngineBasics(engine: string, open: () => Promise<SqlDatabase>): void {
  describe(`${engine}: schema`, () => {
    let database: SqlDatabase;
    beforeAll(async () => {
      database = await open();
    });
    afterAll(async () => {
      await database.close();
    });

    it("the partial unique index admits one active non-queued row per thread, at the SQL level", async () => {
      const threadId = newId();
      await insertRaw(database, runRow(threadId, { status: "running" }));
      const second = insertRaw(database, runRow(threadId, { status: "pending" }));
      const error = await second.then(
        () => null,
        (caught: unknown) => caught,
      );
      expect(isUniqueViolation(error)).toBe(true);
      // Queued and terminal rows are outside the index's predicate.
      await insertRaw(database, runRow(threadId, { status: "pending", queued: true }));
      await insertRaw(database, runRow(threadId, { status: "success" }));
      await insertRaw(database, runRow(threadId, { status: "interrupted" }));
      await insertRaw(database, runRow(newId(), { status: "pending" }));
      const active = await database.db
        .selectFrom("runs")
        .select("run_id")
        .where("thread_id", "=", threadId)
        .where("status", "in", ["pending", "running"])
        .where("queued", "=", false)
        .execute();
      expect(active).toHaveLength(1);
    });

    it("migrations are idempotent: re-opening keeps data and applies nothing twice", async () => {
      const stores = createSqlStores(database);
      const threadId = newId();
      await stores.threads.create({ thread_id: threadId, created_at: at(0) });
      const defined = await definedMigrations(database);
      expect(await migrationCount(database)).toBe(defined);
      const again = await open();
      try {
        expect(await migrationCount(again)).toBe(defined);
        expect((await createSqlStores(again).threads.get(threadId))?.thread_id).toBe(threadId);
      } finally {
        await again.close();
      }
    });

    it("event content containing NUL characters round-trips", async () => {
      const events = new SqlRunEventStore(database);
      const [threadId, runId] = [newId(), newId()];
      const content = "binary\u0000output\u0000";
      const written = await events.put({
        thread_id: threadId,
        run_id: runId,
        event_type: "llm.tool.result",
        category: "message",
        content,
        metadata: { caller: "tool" },
      });
      expect(written.content).toBe(content);
      const [listed] = await events.listEvents(threadId, runId);
      expect(listed?.content).toBe(content);
      expect(listed?.metadata).toEqual({ caller: "tool" });
    });

    it("put of a second active row onto a thread is a ConflictError", async () => {
      const stores = createSqlStores(database);
      const threadId = newId();
      await stores.runs.put(runRow(threadId, { status: "running" }));
      await expect(stores.runs.put(runRow(threadId))).rejects.toBeInstanceOf(ConflictError);
    });

    it("interrupt admission also ends the thread's queued runs", async () => {
      const runs = createSqlStores(database).runs;
      const threadId = newId();
      const admit = (strategy: "reject" | "enqueue" | "interrupt", second: number) =>
        runs.createThreadOperation(
          { run_id: newId(), thread_id: threadId, created_at: at(second) },
          { strategy, workerId: "w", now: at(second), graceSeconds: 10 },
        );
      const active = await admit("reject", 0);
      const waiting = await admit("enqueue", 1);
      const newest = await admit("interrupt", 2);
      if (active.kind !== "admitted" || waiting.kind !== "admitted" || newest.kind !== "admitted") {
        throw new Error("expected three admissions");
      }
      expect(waiting.row.queued).toBe(true);
      expect(newest.interrupted.map((row) => row.run_id)).toEqual([
        active.row.run_id,
        waiting.row.run_id,
      ]);
      for (const row of newest.interrupted) {
        expect(row).toMatchObject({ status: "interrupted", queued: false });
      }
      expect(await runs.promoteNextQueued(threadId)).toBeNull();
    });

    it("a putIfAbsent guard reading the run row joins the event transaction", async () => {
      const stores = createSqlStores(database);
      const row = runRow(newId());
      await stores.runs.put(row);
      // On SQLite a guard that needed a second connection would wait forever for the one that
      // the event transaction holds.
      const result = await withDeadline(
        stores.events.putIfAbsent(
          {
            thread_id: row.thread_id,
            run_id: row.run_id,
            event_type: "run.terminal",
            category: "trace",
          },
          { guard: async () => (await stores.runs.get(row.run_id)) !== null },
        ),
        10_000,
        "the guard deadlocked",
      );
      expect(result.created).toBe(true);
    });
  });
}

describe("SQLite", () => {
  let dir = "";
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "fawn-sql-specific-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  const file = () => `sqlite:${join(dir, "fawn.db")}`;

  describeEngineBasics("sqlite", () => openSqlDatabase(file()));

  it("the worker keeps the event loop free while a long query runs", async () => {
    const database = await openSqlDatabase("sqlite::memory:");
    try {
      let done = false;
      let ticks = 0;
      // About half a second of CPU inside SQLite.
      const query = sql<{ total: number }>`with recursive c(x) as (
          select 1 union all select x + 1 from c where x < 1000000
        ) select sum(x) as total from c`
        .execute(database.db)
        .finally(() => {
          done = true;
        });
      while (!done) {
        await new Promise((resolve) => setImmediate(resolve));
        ticks += 1;
      }
      expect((await query).rows[0]?.total).toBe(500000500000);
      // A synchronous driver would let at most one tick through: the query would have finished
      // before the first setImmediate callback could run.
      expect(ticks).toBeGreaterThan(100);
    } finally {
      await database.close();
    }
  });

  it("a write that finds the file locked is retried with backoff", async () => {
    // busy_timeout 0 makes SQLite answer SQLITE_BUSY at once, so the driver's retry is what waits.
    const url = `sqlite:${join(dir, "busy.db")}`;
    const holder = await openSqlDatabase(url, { busyTimeoutMs: 0 });
    const writer = await openSqlDatabase(url, { busyTimeoutMs: 0 });
    try {
      let entered = (): void => undefined;
      const inside = new Promise<void>((resolve) => {
        entered = resolve;
      });
      const holding = holder.transaction(async (trx) => {
        await trx
          .insertInto("threads_meta")
          .values({
            thread_id: newId(),
            status: "idle",
            metadata_json: "{}",
            created_at: at(0),
            updated_at: at(0),
          })
          .execute();
        entered();
        // Hold the write lock well inside the retry budget (50+100+200+400 ms).
        await new Promise((resolve) => setTimeout(resolve, 120));
      });
      await inside;
      const created = await createSqlStores(writer).threads.create({
        thread_id: newId(),
        created_at: at(0),
      });
      await holding;
      expect(created.created).toBe(true);
    } finally {
      await Promise.all([holder.close(), writer.close()]);
    }
  });

  it("worker errors keep SQLite's error code", async () => {
    const database = await openSqlDatabase("sqlite::memory:");
    try {
      const threadId = newId();
      const row = runRow(threadId, { status: "success" });
      await insertRaw(database, row);
      const error = await insertRaw(database, row).catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code: "SQLITE_CONSTRAINT_PRIMARYKEY" });
      expect(isUniqueViolation(error)).toBe(true);
      await insertRaw(database, runRow(threadId));
      const active = await insertRaw(database, runRow(threadId)).catch((caught: unknown) => caught);
      expect(active).toMatchObject({ code: "SQLITE_CONSTRAINT_UNIQUE" });
    } finally {
      await database.close();
    }
  });

  it("a file SQLite cannot open is a StoreError, and the process carries on", async () => {
    await expect(openSqlDatabase(`sqlite:${dir}`)).rejects.toBeInstanceOf(StoreError);
    const database = await openSqlDatabase("sqlite::memory:");
    await database.close();
  });

  it("rejects URLs it does not understand with a ConfigError", async () => {
    await expect(openSqlDatabase("mysql://localhost/x")).rejects.toBeInstanceOf(ConfigError);
    await expect(openSqlDatabase("sqlite:")).rejects.toBeInstanceOf(ConfigError);
  });
});

const postgres = await createPostgresTestDatabase("sql_specific");

describe.skipIf(postgres === null)("PostgreSQL", () => {
  const url = postgres?.url ?? "";
  afterAll(async () => {
    await postgres?.drop();
  });

  describeEngineBasics("postgres", () => openSqlDatabase(url));

  it("concurrent openers of a fresh database migrate it exactly once", async () => {
    const fresh = await createPostgresTestDatabase("sql_migrate_race");
    if (fresh === null) throw new Error("PostgreSQL vanished mid-run");
    try {
      const opened = await Promise.all(Array.from({ length: 4 }, () => openSqlDatabase(fresh.url)));
      const first = opened[0] as SqlDatabase;
      expect(await migrationCount(first)).toBe(await definedMigrations(first));
      await Promise.all(opened.map((database) => database.close()));
    } finally {
      await fresh.drop();
    }
  });

  it("concurrent putBatch from two connections keeps seqs unique and strictly increasing", async () => {
    const [first, second] = await Promise.all([openSqlDatabase(url), openSqlDatabase(url)]);
    if (first === undefined || second === undefined) throw new Error("open failed");
    try {
      const threadId = newId();
      const writer = async (database: SqlDatabase, name: string): Promise<number[][]> => {
        const store = new SqlRunEventStore(database);
        const batches: number[][] = [];
        for (let i = 0; i < 20; i++) {
          const batch = await store.putBatch(
            Array.from({ length: 5 }, (_, j) => ({
              thread_id: threadId,
              run_id: `${name}-run`,
              event_type: "trace.step",
              category: "trace",
              content: `${name}:${i}:${j}`,
            })),
          );
          batches.push(batch.map((event) => event.seq));
        }
        return batches;
      };
      const results = await Promise.all([writer(first, "a"), writer(second, "b")]);
      for (const batches of results) {
        const seqs = batches.flat();
        for (const batch of batches) {
          expect(batch).toEqual(batch.map((_, k) => (batch[0] ?? 0) + k));
        }
        for (let k = 1; k < seqs.length; k++) {
          expect(seqs[k]).toBeGreaterThan(seqs[k - 1] ?? 0);
        }
      }
      const all = results.flat(2).sort((x, y) => x - y);
      expect(all).toEqual(Array.from({ length: 200 }, (_, k) => k + 1));
      const stored = await sql<{
        seq: number;
      }>`select seq from run_events where thread_id = ${threadId} order by seq`.execute(first.db);
      expect(stored.rows.map((row) => row.seq)).toEqual(all);
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });

  it("racing admissions from two connections admit exactly one active row", async () => {
    const [first, second] = await Promise.all([openSqlDatabase(url), openSqlDatabase(url)]);
    if (first === undefined || second === undefined) throw new Error("open failed");
    try {
      const stores = [createSqlStores(first), createSqlStores(second)];
      const rejectThread = newId();
      const rejects = await Promise.allSettled(
        Array.from({ length: 10 }, (_, i) =>
          stores[i % 2]?.runs.createThreadOperation(
            { run_id: newId(), thread_id: rejectThread, created_at: at(i) },
            { strategy: "reject", workerId: `w${i % 2}`, now: at(0), graceSeconds: 10 },
          ),
        ),
      );
      expect(rejects.filter((result) => result.status === "fulfilled")).toHaveLength(1);
      for (const result of rejects) {
        if (result.status === "rejected") expect(result.reason).toBeInstanceOf(ConflictError);
      }

      const queueThread = newId();
      const enqueued = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          stores[i % 2]?.runs.createThreadOperation(
            { run_id: newId(), thread_id: queueThread, created_at: at(i) },
            { strategy: "enqueue", workerId: `w${i % 2}`, now: at(0), graceSeconds: 10 },
          ),
        ),
      );
      const rows = enqueued.map((result) => (result?.kind === "admitted" ? result.row : null));
      expect(rows.filter((row) => row !== null && !row.queued)).toHaveLength(1);
      expect(rows.filter((row) => row?.queued === true)).toHaveLength(9);
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });

  it("a NUL inside JSON metadata is a ValidationError, not an unavailable store", async () => {
    const database = await openSqlDatabase(url);
    try {
      const threads = createSqlStores(database).threads;
      await expect(
        threads.create({ thread_id: newId(), metadata: { x: "a\u0000b" }, created_at: at(0) }),
      ).rejects.toBeInstanceOf(ValidationError);
    } finally {
      await database.close();
    }
  });

  it("an unreachable server fails the open with a StoreError", async () => {
    await expect(openSqlDatabase("postgres://postgres@127.0.0.1:1/none")).rejects.toBeInstanceOf(
      StoreError,
    );
  });
});
