import { type Selectable, sql } from "kysely";
import {
  checkDocumentName,
  DOCUMENT_LIST_MAX,
  type DocumentListOptions,
  type DocumentStore,
  type ExpectedRevision,
  type StoredDocument,
} from "../../../ports/document-store.js";
import { fromDbObject, fromDbTimestamp, toNumber } from "../codec.js";
import type { HarnessDocumentsTable } from "../schema.js";
import { SqlStore } from "../sql-store.js";
import { encodeDocumentValue } from "./document-value.js";

function documentFromDb(row: Selectable<HarnessDocumentsTable>): StoredDocument {
  return {
    collection: row.collection,
    owner: row.owner,
    key: row.key,
    value: fromDbObject(row.value),
    revision: toNumber(row.revision),
    created_at: fromDbTimestamp(row.created_at),
    updated_at: fromDbTimestamp(row.updated_at),
  };
}

/** `harness_documents` over Kysely: every write is one statement, so one transaction. */
export class SqlDocumentStore extends SqlStore implements DocumentStore {
  get(collection: string, owner: string, key: string): Promise<StoredDocument | null> {
    return this.wrap("read a document", async () => {
      const row = await this.db
        .selectFrom("harness_documents")
        .selectAll()
        .where("collection", "=", collection)
        .where("owner", "=", owner)
        .where("key", "=", key)
        .executeTakeFirst();
      return row === undefined ? null : documentFromDb(row);
    });
  }

  list(
    collection: string,
    owner: string,
    options: DocumentListOptions = {},
  ): Promise<StoredDocument[]> {
    return this.wrap("list documents", async () => {
      const limit = Math.min(Math.max(options.limit ?? DOCUMENT_LIST_MAX, 1), DOCUMENT_LIST_MAX);
      let query = this.db
        .selectFrom("harness_documents")
        .selectAll()
        .where("collection", "=", collection)
        .where("owner", "=", owner);
      const prefix = options.keyPrefix;
      if (prefix !== undefined && prefix.length > 0) {
        // substr, not LIKE: SQLite's LIKE ignores ASCII case and both treat % and _ specially.
        query = query.where(sql<string>`substr(key, 1, ${prefix.length})`, "=", prefix);
      }
      const rows = await query.orderBy("key").limit(limit).execute();
      return rows.map(documentFromDb);
    });
  }

  async put(
    collection: string,
    owner: string,
    key: string,
    value: Record<string, unknown>,
    expected: ExpectedRevision,
  ): Promise<StoredDocument | null> {
    checkDocumentName("collection", collection);
    checkDocumentName("owner", owner);
    checkDocumentName("key", key);
    const text = encodeDocumentValue(value);
    return this.wrap("write a document", async () => {
      const now = this.now();
      if (expected === 0 || expected === "any") {
        const insert = this.db.insertInto("harness_documents").values({
          collection,
          owner,
          key,
          value: text,
          revision: 1,
          created_at: now,
          updated_at: now,
        });
        const row = await (expected === 0
          ? insert.onConflict((oc) => oc.columns(["collection", "owner", "key"]).doNothing())
          : insert.onConflict((oc) =>
              oc.columns(["collection", "owner", "key"]).doUpdateSet({
                value: text,
                revision: sql<number>`harness_documents.revision + 1`,
                updated_at: now,
              }),
            )
        )
          .returningAll()
          .executeTakeFirst();
        return row === undefined ? null : documentFromDb(row);
      }
      const row = await this.db
        .updateTable("harness_documents")
        .set({ value: text, revision: expected + 1, updated_at: now })
        .where("collection", "=", collection)
        .where("owner", "=", owner)
        .where("key", "=", key)
        .where("revision", "=", expected)
        .returningAll()
        .executeTakeFirst();
      return row === undefined ? null : documentFromDb(row);
    });
  }

  delete(
    collection: string,
    owner: string,
    key: string,
    expected: ExpectedRevision = "any",
  ): Promise<boolean> {
    return this.wrap("delete a document", async () => {
      let query = this.db
        .deleteFrom("harness_documents")
        .where("collection", "=", collection)
        .where("owner", "=", owner)
        .where("key", "=", key);
      if (expected !== "any") query = query.where("revision", "=", expected);
      const result = await query.executeTakeFirst();
      return toNumber(result.numDeletedRows) > 0;
    });
  }

  deleteAll(collection: string, owner: string): Promise<number> {
    return this.wrap("delete documents", async () => {
      const result = await this.db
        .deleteFrom("harness_documents")
        .where("collection", "=", collection)
        .where("owner", "=", owner)
        .executeTakeFirst();
      return toNumber(result.numDeletedRows);
    });
  }
}
