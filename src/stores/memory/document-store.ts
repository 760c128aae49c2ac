import { type Clock, isoNow, systemClock } from "../../core/clock.js";
import {
  checkDocumentName,
  DOCUMENT_LIST_MAX,
  type DocumentListOptions,
  type DocumentStore,
  type ExpectedRevision,
  type StoredDocument,
} from "../../ports/document-store.js";
import { encodeDocumentValue } from "../sql/documents/document-value.js";

/** Harness documents in process memory (tests, memory stores). Values are kept as JSON text. */
export class MemoryDocumentStore implements DocumentStore {
  private readonly rows = new Map<string, StoredDocument & { text: string }>();
  private readonly clock: Clock;

  constructor(options: { clock?: Clock } = {}) {
    this.clock = options.clock ?? systemClock;
  }

  async get(collection: string, owner: string, key: string): Promise<StoredDocument | null> {
    const row = this.rows.get(rowKey(collection, owner, key));
    return row ? publicCopy(row) : null;
  }

  async list(
    collection: string,
    owner: string,
    options: DocumentListOptions = {},
  ): Promise<StoredDocument[]> {
    const limit = Math.min(Math.max(options.limit ?? DOCUMENT_LIST_MAX, 1), DOCUMENT_LIST_MAX);
    const prefix = options.keyPrefix ?? "";
    return [...this.rows.values()]
      .filter((row) => row.collection === collection && row.owner === owner)
      .filter((row) => row.key.startsWith(prefix))
      .sort((a, b) => compareBytes(a.key, b.key))
      .slice(0, limit)
      .map(publicCopy);
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
    const id = rowKey(collection, owner, key);
    const current = this.rows.get(id);
    const currentRevision = current?.revision ?? 0;
    if (expected !== "any" && expected !== currentRevision) return null;
    const now = isoNow(this.clock);
    const row = {
      collection,
      owner,
      key,
      value: {},
      text,
      revision: currentRevision + 1,
      created_at: current?.created_at ?? now,
      updated_at: now,
    };
    this.rows.set(id, row);
    return publicCopy(row);
  }

  async delete(
    collection: string,
    owner: string,
    key: string,
    expected: ExpectedRevision = "any",
  ): Promise<boolean> {
    const id = rowKey(collection, owner, key);
    const current = this.rows.get(id);
    if (!current) return false;
    if (expected !== "any" && expected !== current.revision) return false;
    return this.rows.delete(id);
  }

  async deleteAll(collection: string, owner: string): Promise<number> {
    let deleted = 0;
    for (const [id, row] of this.rows) {
      if (row.collection === collection && row.owner === owner) {
        this.rows.delete(id);
        deleted += 1;
      }
    }
    return deleted;
  }

  async close(): Promise<void> {}
}

function rowKey(collection: string, owner: string, key: string): string {
  return JSON.stringify([collection, owner, key]);
}

/** A fresh value each read, as a database gives: callers may change what they got. */
function publicCopy(row: StoredDocument & { text: string }): StoredDocument {
  const { text, ...rest } = row;
  const parsed: unknown = JSON.parse(text);
  const value =
    typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)
      ? Object.fromEntries(Object.entries(parsed))
      : {};
  return { ...rest, value };
}

/** UTF-8 byte order, as both SQL engines compare keys. */
function compareBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}
