import { KeyedMutex } from "../../core/async/keyed-mutex.js";
import { PayloadTooLargeError } from "../../core/errors.js";
import { type Logger, rootLogger } from "../../core/logger.js";
import type { FawnPaths } from "../../core/paths.js";
import {
  DOCUMENT_VALUE_MAX_CHARS,
  type DocumentStore,
  updateDocument,
} from "../../ports/document-store.js";
import { importLegacyMemoryFile } from "./legacy-memory-file.js";
import { emptyMemory, type MemoryDocument, memoryDocumentSchema } from "./memory-document.js";

/** Document collection and key: one memory document per user (the document's owner). */
export const MEMORY_COLLECTION = "memory";
export const MEMORY_KEY = "memory";
/** Largest stored memory (JSON characters), inside the document store's bound. */
export const MEMORY_MAX_CHARS = Math.min(8 * 1024 * 1024, DOCUMENT_VALUE_MAX_CHARS);

/** Beside the memory in a change: when it was last forgotten (ISO), so stale updates stand down. */
export interface MemoryChangeContext {
  forgottenAt: string | null;
}

export type MemoryChange = (
  current: MemoryDocument,
  context: MemoryChangeContext,
) => MemoryDocument | null;

export interface MemoryStoreOptions {
  documents: DocumentStore;
  /** Where a legacy `users/<u>/memory.json` may wait to be imported (once); null = none. */
  legacyPaths?: FawnPaths | null;
  logger?: Logger;
  now?: () => Date;
}

/** One in-process lock per user and document store: fewer compare-and-set retries. */
const locksByStore = new WeakMap<DocumentStore, KeyedMutex<string>>();

/**
 * Per-user memory in the harness document store, so every process of a deployment reads and
 * writes the same memory. A change is a compare-and-set on the document's revision (re-read and
 * re-applied when another writer got there first), so concurrent updates — from this process or
 * another — never lose each other's facts. A stored value of unknown shape reads as empty memory
 * and is copied aside before the next write replaces it.
 */
export class MemoryStore {
  private readonly documents: DocumentStore;
  private readonly logger: Logger;
  private readonly now: () => Date;
  private readonly legacyPaths: FawnPaths | null;
  /** Per user, the (one) look for a legacy file by this process; later calls wait for it. */
  private readonly legacyImports = new Map<string, Promise<void>>();
  private readonly locks: KeyedMutex<string>;

  constructor(options: MemoryStoreOptions) {
    this.documents = options.documents;
    this.logger = options.logger ?? rootLogger;
    this.now = options.now ?? (() => new Date());
    this.legacyPaths = options.legacyPaths ?? null;
    let locks = locksByStore.get(this.documents);
    if (!locks) {
      locks = new KeyedMutex<string>();
      locksByStore.set(this.documents, locks);
    }
    this.locks = locks;
  }

  async read(userId: string): Promise<MemoryDocument> {
    await this.importLegacyOnce(userId);
    const stored = await this.documents.get(MEMORY_COLLECTION, userId, MEMORY_KEY);
    if (stored === null) return emptyMemory();
    return this.decode(userId, stored.value, stored.revision).memory;
  }

  /**
   * Applies `change` to the current memory and stores the result; `null` means "no change" and
   * writes nothing. `change` may run more than once (after a concurrent write), so it must only
   * compute. Returns the memory as stored afterwards.
   */
  async update(userId: string, change: MemoryChange): Promise<MemoryDocument> {
    await this.importLegacyOnce(userId);
    return this.locks.runExclusive(userId, async () => {
      let unchanged: MemoryDocument = emptyMemory();
      const stored = await updateDocument(
        this.documents,
        MEMORY_COLLECTION,
        userId,
        MEMORY_KEY,
        (current) => {
          const decoded = current
            ? this.decode(userId, current.value, current.revision)
            : { memory: emptyMemory(), forgottenAt: null, damaged: false };
          unchanged = decoded.memory;
          const next = change(decoded.memory, { forgottenAt: decoded.forgottenAt });
          if (next === null) return null;
          return this.encode(next, decoded.forgottenAt);
        },
      );
      if (stored === null) return unchanged;
      return this.decode(userId, stored.value, stored.revision).memory;
    });
  }

  /** Replaces the whole memory (import); the facts' own fields are kept as given. */
  replace(userId: string, memory: MemoryDocument): Promise<MemoryDocument> {
    return this.update(userId, () => memory);
  }

  /**
   * Forgets everything and notes when, so an update queued before it — in any process — writes
   * nothing. The revision keeps counting, so clients see the change.
   */
  async clear(userId: string): Promise<MemoryDocument> {
    await this.importLegacyOnce(userId);
    const forgottenAt = this.now().toISOString();
    return this.locks.runExclusive(userId, async () => {
      const stored = await updateDocument(
        this.documents,
        MEMORY_COLLECTION,
        userId,
        MEMORY_KEY,
        () => this.encode(emptyMemory(), forgottenAt),
      );
      return stored ? this.decode(userId, stored.value, stored.revision).memory : emptyMemory();
    });
  }

  private encode(memory: MemoryDocument, forgottenAt: string | null): Record<string, unknown> {
    const { revision: _revision, ...fields } = memory;
    const value = {
      ...fields,
      lastUpdated: this.now().toISOString(),
      ...(forgottenAt ? { forgottenAt } : {}),
    };
    // Refused here with a sentence, not deep in the store as a RangeError (a 500).
    if (JSON.stringify(value).length > MEMORY_MAX_CHARS) {
      throw new PayloadTooLargeError(
        `This memory would exceed ${MEMORY_MAX_CHARS} characters; delete facts or lower memory.max_facts.`,
      );
    }
    return value;
  }

  private decode(
    userId: string,
    value: Record<string, unknown>,
    revision: number,
  ): { memory: MemoryDocument; forgottenAt: string | null; damaged: boolean } {
    const forgottenAt = typeof value.forgottenAt === "string" ? value.forgottenAt : null;
    const parsed = memoryDocumentSchema.safeParse(value);
    if (parsed.success)
      return { memory: { ...parsed.data, revision }, forgottenAt, damaged: false };
    this.logger.warn({ userId }, "stored memory has an unknown shape; reading it as empty");
    void this.setAside(userId, value);
    return { memory: { ...emptyMemory(), revision }, forgottenAt, damaged: true };
  }

  /** Keeps an unreadable stored value under another key, so the next write does not erase it. */
  private async setAside(userId: string, value: Record<string, unknown>): Promise<void> {
    const key = `${MEMORY_KEY}.unreadable-${this.now().getTime()}`;
    await this.documents.put(MEMORY_COLLECTION, userId, key, value, 0).catch(() => null);
  }

  private importLegacyOnce(userId: string): Promise<void> {
    if (this.legacyPaths === null) return Promise.resolve();
    let pending = this.legacyImports.get(userId);
    if (!pending) {
      pending = importLegacyMemoryFile({
        documents: this.documents,
        paths: this.legacyPaths,
        userId,
        collection: MEMORY_COLLECTION,
        key: MEMORY_KEY,
        logger: this.logger,
      });
      // A failed look is retried on the next call rather than cached.
      pending.catch(() => this.legacyImports.delete(userId));
      this.legacyImports.set(userId, pending);
    }
    return pending;
  }
}
