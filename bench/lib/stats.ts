/** Order statistics for benchmark samples (nearest-rank, so every figure is an observed value). */

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] ?? Number.NaN;
}

/** The middle value; with an even count the mean of the two middle ones. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const upper = sorted[mid] ?? Number.NaN;
  return sorted.length % 2 === 1 ? upper : ((sorted[mid - 1] ?? Number.NaN) + upper) / 2;
}

/** The median of each field over repetitions, field by field. */
export function medianOf<K extends string>(reps: readonly Record<K, number>[], keys: readonly K[]) {
  const result = {} as Record<K, number>;
  for (const key of keys) result[key] = median(reps.map((rep) => rep[key]));
  return result;
}
