/**
 * How the SQL layer packs work into fewer trips: on SQLite, a transaction's BEGIN travels with its
 * first statement, an empty transaction sends nothing, a read-only transaction's COMMIT is not
 * waited for, and `executeBatch` is one message — all without giving up all-or-nothing. The same
 * `executeBatch` contract is checked on PostgreSQL. Counts come from `countTraffic`, never time.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type CompiledQuery, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSqlDatabase, type SqlDatabase } from "../../src/stores/sql/database.js";
import { type SqlTraffic, trafficSince } from "../../src/stores/sql/sql-traffic.js";
import { createPostgresTestDatabase } from "../helpers/postgres.js";

const insertPair = (db: SqlDatabase, k: string, v: string | null): CompiledQuery =>
  sql`insert into batch_probe (k, v) values (${k}, ${v})`.compile(db.db);

async function keys(db: SqlDatabase): Promise<string[]> {
  const { rows } = await sql<{ k: string }>`select k from batch_probe order by k`.execute(db.db);
  return rows.map((row) => row.k);
}

async function clear(db: SqlDatabase): Promise<void> {
  await sql`delete from batch_probe`.execute(db.db);
}

/** The executeBatch contract, the same on both engines. */
function describeExecuteBatch(name: string, open: () => SqlDatabase): void {
  describe(`executeBatch on ${name}`, () => {
    it("commits every statement and answers each in order", async () => {
      const db = open();
      await clear(db);
      const results = await db.executeBatch([
        insertPair(db, "a", "1"),
        insertPair(db, "b", "2"),
        sql`select k, v from batch_probe order by k`.compile(db.db),
      ]);
      expect(results).toHaveLength(3);
      expect(results[0]?.numAffectedRows).toBe(1n);
      expect(results[2]?.rows).toEqual([
        { k: "a", v: "1" },
        { k: "b", v: "2" },
      ]);
      expect(await keys(db)).toEqual(["a", "b"]);
    });

    it("a failing statement leaves nothing of the batch behind", async () => {
      const db = open();
      await clear(db);
      await expect(
        db.executeBatch([insertPair(db, "a", "1"), insertPair(db, "b", null)]),
      ).rejects.toThrow();
      expect(await keys(db)).toEqual([]);
      // The connection is usable afterwards: no transaction was left open.
      await db.executeBatch([insertPair(db, "c", "3")]);
      expect(await keys(db)).toEqual(["c"]);
    });

    it("inside a transaction it joins it, and rolls back with it", async () => {
      const db = open();
      await clear(db);
      await expect(
        db.transaction(async (trx) => {
          await sql`insert into batch_probe (k, v) values ('x', '0')`.execute(trx);
          await db.executeBatch([insertPair(db, "y", "1"), insertPair(db, "z", "2")]);
          throw new Error("abandon the transaction");
        }),
      ).rejects.toThrow("abandon the transaction");
      expect(await keys(db)).toEqual([]);
      await db.transaction(async () => {
        await db.executeBatch([insertPair(db, "y", "1"), insertPair(db, "z", "2")]);
      });
      expect(await keys(db)).toEqual(["y", "z"]);
    });

    it("as a transaction's last statements (commit: true) it commits with it", async () => {
      const db = open();
      await clear(db);
      await db.transaction(async (trx) => {
        await sql`select count(*) as n from batch_probe`.execute(trx);
        await db.executeBatch([insertPair(db, "p", "1"), insertPair(db, "q", "2")], {
          commit: true,
        });
      });
      expect(await keys(db)).toEqual(["p", "q"]);
    });
  });
}

let dir = "";
let sqlite: SqlDatabase | null = null;

function openedSqlite(): SqlDatabase {
  if (sqlite === null) throw new Error("the SQLite test database is not open");
  return sqlite;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "fawn-sql-batching-"));
  sqlite = await openSqlDatabase(`sqlite:${join(dir, "fawn.db")}`, { countTraffic: true });
  await sql`create table batch_probe (k text primary key, v text not null)`.execute(sqlite.db);
});

afterAll(async () => {
  await sqlite?.close();
  await rm(dir, { recursive: true, force: true });
});

describeExecuteBatch("SQLite", openedSqlite);

describe("SQLite worker traffic", () => {
  function counted(db: SqlDatabase): SqlTraffic {
    const traffic = db.traffic();
    if (traffic === null) throw new Error("traffic counting is off");
    return { ...traffic };
  }

  async function spentOn(work: (db: SqlDatabase) => Promise<unknown>): Promise<SqlTraffic> {
    const db = openedSqlite();
    const before = counted(db);
    await work(db).catch(() => undefined);
    return trafficSince(before, counted(db));
  }

  it("a write transaction's BEGIN travels with its first statement", async () => {
    await clear(openedSqlite());
    const spent = await spentOn((db) =>
      db.transaction(async (trx) => {
        await sql`insert into batch_probe (k, v) values ('a', '1')`.execute(trx);
        await sql`insert into batch_probe (k, v) values ('b', '2')`.execute(trx);
      }),
    );
    // Two statements and the COMMIT: no message of its own for BEGIN.
    expect(spent).toEqual({ statements: 2, transactions: 1, messages: 3, roundTrips: 3 });
  });

  it("batches queued behind a busy connection travel in one message, each its own transaction", async () => {
    const db = openedSqlite();
    await clear(db);
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // A transaction holds the one connection while three batches queue up behind it.
    const holder = db.transaction(async (trx) => {
      await sql`insert into batch_probe (k, v) values ('held', '0')`.execute(trx);
      await held;
    });
    await new Promise((resolve) => setImmediate(resolve));
    const before = counted(db);
    const queued = [
      db.executeBatch([insertPair(db, "a", "1"), insertPair(db, "b", "2")]),
      // Fails on its second statement (the key exists): only this batch is rolled back.
      db.executeBatch([insertPair(db, "c", "3"), insertPair(db, "a", "again")]),
      db.executeBatch([insertPair(db, "d", "4")]),
    ];
    release();
    await holder;
    const settled = await Promise.allSettled(queued);
    const spent = trafficSince(before, counted(db));
    expect(settled.map((outcome) => outcome.status)).toEqual([
      "fulfilled",
      "rejected",
      "fulfilled",
    ]);
    // The holder's COMMIT, then one message for the three batches.
    expect(spent).toMatchObject({ statements: 5, transactions: 3, messages: 2, roundTrips: 2 });
    expect(await keys(db)).toEqual(["a", "b", "d", "held"]);
  });

  it("an empty transaction sends nothing", async () => {
    const spent = await spentOn((db) => db.transaction(async () => "nothing to do"));
    expect(spent).toEqual({ statements: 0, transactions: 0, messages: 0, roundTrips: 0 });
  });

  it("a read-only transaction's COMMIT is posted without waiting, and the next write works", async () => {
    const db = openedSqlite();
    await clear(db);
    const spent = await spentOn((d) =>
      d.transaction((trx) => sql`select count(*) as n from batch_probe`.execute(trx)),
    );
    expect(spent).toEqual({ statements: 1, transactions: 1, messages: 2, roundTrips: 1 });
    await db.transaction((trx) =>
      sql`insert into batch_probe (k, v) values ('after', 'read')`.execute(trx),
    );
    expect(await keys(db)).toEqual(["after"]);
  });

  it("a failed first statement rolls back cleanly and the connection goes on", async () => {
    const db = openedSqlite();
    await clear(db);
    await expect(
      db.transaction((trx) => sql`insert into batch_probe (k, v) values ('a', null)`.execute(trx)),
    ).rejects.toThrow();
    await db.transaction((trx) =>
      sql`insert into batch_probe (k, v) values ('b', '2')`.execute(trx),
    );
    expect(await keys(db)).toEqual(["b"]);
  });

  it("a batch is one round trip; inside a transaction it is one more message", async () => {
    const db = openedSqlite();
    await clear(db);
    const alone = await spentOn((d) =>
      d.executeBatch([insertPair(d, "a", "1"), insertPair(d, "b", "2"), insertPair(d, "c", "3")]),
    );
    expect(alone).toEqual({ statements: 3, transactions: 1, messages: 1, roundTrips: 1 });
    const joined = await spentOn((d) =>
      d.transaction(async () => {
        await d.executeBatch([insertPair(d, "d", "4"), insertPair(d, "e", "5")]);
      }),
    );
    // The batch (carrying the BEGIN) and the COMMIT.
    expect(joined).toEqual({ statements: 2, transactions: 1, messages: 2, roundTrips: 2 });
    expect(await keys(db)).toEqual(["a", "b", "c", "d", "e"]);
  });

  it("a read, then a last batch carrying the COMMIT: two round trips for the transaction", async () => {
    const db = openedSqlite();
    await clear(db);
    const spent = await spentOn((d) =>
      d.transaction(async (trx) => {
        await sql`select count(*) as n from batch_probe`.execute(trx);
        await d.executeBatch([insertPair(d, "a", "1"), insertPair(d, "b", "2")], { commit: true });
      }),
    );
    expect(spent).toEqual({ statements: 3, transactions: 1, messages: 2, roundTrips: 2 });
    expect(await keys(db)).toEqual(["a", "b"]);
  });

  it("a committing batch as the transaction's first message leaves no BEGIN behind", async () => {
    const db = openedSqlite();
    await clear(db);
    const whole = await spentOn((d) =>
      d.transaction(async () => {
        await d.executeBatch([insertPair(d, "a", "1")], { commit: true });
      }),
    );
    expect(whole).toEqual({ statements: 1, transactions: 1, messages: 1, roundTrips: 1 });
    // The next statement outside a transaction must not open one (and hold the write lock).
    const after = await spentOn((d) =>
      sql`insert into batch_probe (k, v) values ('b', '2')`.execute(d.db),
    );
    expect(after.transactions).toBe(0);
    const second = await openSqlDatabase(`sqlite:${join(dir, "fawn.db")}`, { busyTimeoutMs: 200 });
    try {
      await sql`insert into batch_probe (k, v) values ('c', '3')`.execute(second.db);
    } finally {
      await second.close();
    }
    expect(await keys(db)).toEqual(["a", "b", "c"]);
  });

  it("a statement after the committing batch fails instead of running outside the transaction", async () => {
    const db = openedSqlite();
    await clear(db);
    await expect(
      db.transaction(async (trx) => {
        await db.executeBatch([insertPair(db, "a", "1")], { commit: true });
        await sql`insert into batch_probe (k, v) values ('late', 'x')`.execute(trx);
      }),
    ).rejects.toThrow(/already committed/);
    // What the batch committed stays; the late statement never ran; the connection goes on.
    expect(await keys(db)).toEqual(["a"]);
    await db.executeBatch([insertPair(db, "b", "2")]);
    expect(await keys(db)).toEqual(["a", "b"]);
  });
});

const postgresDatabase = await createPostgresTestDatabase("sql_batching");
let postgres: SqlDatabase | null = null;

describe.skipIf(postgresDatabase === null)("PostgreSQL", () => {
  beforeAll(async () => {
    if (postgresDatabase === null) return;
    postgres = await openSqlDatabase(postgresDatabase.url);
    await sql`create table batch_probe (k text primary key, v text not null)`.execute(postgres.db);
  });

  afterAll(async () => {
    await postgres?.close();
    await postgresDatabase?.drop();
  });

  describeExecuteBatch("PostgreSQL", () => {
    if (postgres === null) throw new Error("the PostgreSQL test database is not open");
    return postgres;
  });
});
