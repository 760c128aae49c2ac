import { Mutex } from "./mutex.js";

/**
 * One `Mutex` per key (a thread id, a sandbox id), created on demand and dropped once nobody holds
 * or waits for it, so the map stays as small as the set of keys in use.
 */
export class KeyedMutex<K> {
  private readonly entries = new Map<K, { mutex: Mutex; users: number }>();

  async runExclusive<T>(
    key: K,
    fn: () => T | Promise<T>,
    options: { signal?: AbortSignal } = {},
  ): Promise<T> {
    let entry = this.entries.get(key);
    if (!entry) {
      entry = { mutex: new Mutex(), users: 0 };
      this.entries.set(key, entry);
    }
    entry.users += 1;
    try {
      return await entry.mutex.runExclusive(fn, options);
    } finally {
      entry.users -= 1;
      if (entry.users === 0) this.entries.delete(key);
    }
  }

  /**
   * Holds the locks of several keys at once (a batch may span threads), taken in sorted order so
   * two callers of overlapping keys never deadlock.
   */
  runExclusiveAll<T>(
    this: KeyedMutex<string>,
    keys: Iterable<string>,
    fn: () => T | Promise<T>,
  ): Promise<T> {
    const sorted = [...new Set(keys)].sort();
    const acquire = (index: number): T | Promise<T> => {
      const key = sorted[index];
      return key === undefined ? fn() : this.runExclusive(key, () => acquire(index + 1));
    };
    const [first] = sorted;
    if (first === undefined) return (async () => fn())();
    return this.runExclusive(first, () => acquire(1));
  }

  isLocked(key: K): boolean {
    return this.entries.get(key)?.mutex.isLocked ?? false;
  }

  /** Number of keys currently held or waited for. */
  get size(): number {
    return this.entries.size;
  }
}
