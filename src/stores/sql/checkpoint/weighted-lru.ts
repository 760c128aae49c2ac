/**
 * A least-recently-used map bounded by total weight (entries, refs or bytes — the caller says).
 * The saver caches only immutable things in it (lists by unique id, messages by content hash), so
 * an entry can be evicted early but never be stale. Recency is approximate: a hit moves an entry
 * to the newest end only once it has drifted into the older half of the map, so the hits of a
 * warm read (one per message) cost a lookup rather than a delete and re-insert each.
 */
export class WeightedLru<K, V> {
  private readonly entries = new Map<K, { value: V; weight: number; placed: number }>();
  private total = 0;
  /** Counts placements at the newest end; `placed` stamps when an entry was last put there. */
  private placements = 0;

  constructor(
    private readonly maxWeight: number,
    private readonly weigh: (value: V) => number,
  ) {}

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    // At most `placements - placed` entries were placed after it: it is in the newest half.
    if (this.placements - entry.placed > this.entries.size / 2) {
      this.entries.delete(key);
      this.entries.set(key, entry);
      entry.placed = ++this.placements;
    }
    return entry.value;
  }

  set(key: K, value: V): void {
    const weight = this.weigh(value);
    const previous = this.entries.get(key);
    if (previous !== undefined) {
      this.entries.delete(key);
      this.total -= previous.weight;
    }
    if (weight > this.maxWeight) return;
    this.entries.set(key, { value, weight, placed: ++this.placements });
    this.total += weight;
    for (const [oldest, entry] of this.entries) {
      if (this.total <= this.maxWeight) break;
      this.entries.delete(oldest);
      this.total -= entry.weight;
    }
  }
}
