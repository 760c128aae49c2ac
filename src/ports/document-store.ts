/**
 * Small per-owner JSON documents the harness keeps in the run database, so every process of a
 * deployment sees the same state: memory, custom agents, user profiles, skill switches and
 * custom skills with their history. One document is (collection, owner, key) → a JSON object
 * with a revision; a write names the revision it read, so concurrent writers never lose each
 * other's changes (the loser re-reads and retries, see `updateDocument`).
 */

/** A stored document. `revision` starts at 1 and grows by one per write. */
export interface StoredDocument {
  collection: string;
  owner: string;
  key: string;
  value: Record<string, unknown>;
  revision: number;
  created_at: string;
  updated_at: string;
}

/** The revision a write expects: 0 = the document must not exist yet; "any" = overwrite. */
export type ExpectedRevision = number | "any";

export interface DocumentListOptions {
  /** Only keys starting with this. */
  keyPrefix?: string;
  /** Most documents answered, in key order (default and cap: 1000). */
  limit?: number;
}

/** Longest collection, owner and key accepted (they are columns of the primary key). */
export const DOCUMENT_NAME_MAX = 128;
/** Largest serialized value accepted (JSON characters). */
export const DOCUMENT_VALUE_MAX_CHARS = 16 * 1024 * 1024;
export const DOCUMENT_LIST_MAX = 1000;

export interface DocumentStore {
  get(collection: string, owner: string, key: string): Promise<StoredDocument | null>;
  /** The owner's documents of a collection, in key order. */
  list(collection: string, owner: string, options?: DocumentListOptions): Promise<StoredDocument[]>;
  /**
   * Writes `value` if the stored revision is `expected`; answers the stored document, or null
   * when the revision did not match (nothing written). One transaction.
   */
  put(
    collection: string,
    owner: string,
    key: string,
    value: Record<string, unknown>,
    expected: ExpectedRevision,
  ): Promise<StoredDocument | null>;
  /** Deletes the document (only at `expected` when given); answers whether one was deleted. */
  delete(
    collection: string,
    owner: string,
    key: string,
    expected?: ExpectedRevision,
  ): Promise<boolean>;
  /** Deletes every document of the owner in the collection; answers how many. */
  deleteAll(collection: string, owner: string): Promise<number>;
  close(): Promise<void>;
}

/** A write that kept losing to concurrent writers. */
export class DocumentConflictError extends Error {
  constructor(readonly where: string) {
    super(`${where} was changed concurrently too many times; retry.`);
    this.name = "DocumentConflictError";
  }
}

/**
 * Read-modify-write of one document under optimistic concurrency: `change` gets the current value
 * (null when absent) and answers the next value, or null for "no change" (nothing written). On a
 * revision conflict the document is re-read and `change` runs again.
 */
export async function updateDocument(
  store: DocumentStore,
  collection: string,
  owner: string,
  key: string,
  change: (current: StoredDocument | null) => Record<string, unknown> | null,
  maxAttempts = 20,
): Promise<StoredDocument | null> {
  for (let attempt = 0; attempt < maxAttempts; attempt += 1) {
    const current = await store.get(collection, owner, key);
    const next = change(current);
    if (next === null) return current;
    const stored = await store.put(collection, owner, key, next, current?.revision ?? 0);
    if (stored !== null) return stored;
  }
  throw new DocumentConflictError(`${collection}/${key}`);
}

/** Refuses names the store cannot key by (empty, too long). */
export function checkDocumentName(kind: string, value: string): void {
  if (value.length === 0 || value.length > DOCUMENT_NAME_MAX) {
    throw new RangeError(`document ${kind} must be 1–${DOCUMENT_NAME_MAX} characters`);
  }
}
