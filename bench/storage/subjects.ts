/**
 * The savers the storage bench compares, each on its own SQLite file, with a way to read how many
 * bytes the file holds (live pages only, so freed pages do not count).
 */
import { join } from "node:path";
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { sql } from "kysely";
import { SqlCheckpointSaver } from "../../src/stores/sql/checkpoint/sql-checkpoint-saver.js";
import { openSqlDatabase } from "../../src/stores/sql/database.js";

export interface Subject {
  name: string;
  saver: BaseCheckpointSaver;
  /** Bytes in live database pages. */
  size(): Promise<number>;
  /** Serialized payload bytes the saver reported writing (Fawn's saver only). */
  payload(): number | null;
  close(): Promise<void>;
}

export async function fawnSubject(dir: string): Promise<Subject> {
  const database = await openSqlDatabase(`sqlite:${join(dir, "fawn.sqlite")}`);
  let payload = 0;
  const saver = new SqlCheckpointSaver(database, {
    onBytesWritten: (bytes) => {
      payload += bytes;
    },
  });
  return {
    name: "fawn SqlCheckpointSaver",
    saver,
    async size() {
      const pages = await sql<{ live: number }>`
        select (select page_count from pragma_page_count())
             - (select freelist_count from pragma_freelist_count()) as live`.execute(database.db);
      const pageSize = await sql<{
        page_size: number;
      }>`select page_size from pragma_page_size()`.execute(database.db);
      return Number(pages.rows[0]?.live ?? 0) * Number(pageSize.rows[0]?.page_size ?? 0);
    },
    payload: () => payload,
    close: () => database.close(),
  };
}

export function langgraphSqliteSubject(dir: string): Subject {
  const saver = SqliteSaver.fromConnString(join(dir, "langgraph.sqlite"));
  return {
    name: "@langchain/langgraph-checkpoint-sqlite",
    saver,
    async size() {
      const pages = Number(saver.db.pragma("page_count", { simple: true }));
      const free = Number(saver.db.pragma("freelist_count", { simple: true }));
      const pageSize = Number(saver.db.pragma("page_size", { simple: true }));
      return (pages - free) * pageSize;
    },
    payload: () => null,
    async close() {
      saver.db.close();
    },
  };
}
