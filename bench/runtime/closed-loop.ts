import { percentile } from "../lib/stats.js";

/** One run as its client saw it. */
export interface RunSample {
  /** Start of the request → first event (the SSE `metadata` frame; first chunk in-process). */
  firstEventMs: number;
  /** Start of the request → end of the stream. */
  totalMs: number;
}

export interface LoadBounds {
  concurrency: number;
  /** Keep starting runs until both are reached… */
  minRuns: number;
  minDurationMs: number;
  /** …or until this much time has passed (then in-flight runs finish and count). */
  maxDurationMs: number;
}

export interface LoadFigures {
  runs: number;
  errors: number;
  runsPerSecond: number;
  p50Ms: number;
  p95Ms: number;
  firstEventP50Ms: number;
  firstEventP95Ms: number;
}

/**
 * Closed-loop load: `concurrency` clients, each starting its next run when the previous one ends.
 * Throughput is completed runs over the time from the first start to the last end.
 */
export async function closedLoop(
  bounds: LoadBounds,
  runOnce: () => Promise<RunSample>,
): Promise<LoadFigures> {
  const samples: RunSample[] = [];
  let errors = 0;
  let lastError: unknown;
  const started = performance.now();
  const keepGoing = (): boolean => {
    const elapsed = performance.now() - started;
    if (elapsed >= bounds.maxDurationMs) return false;
    return elapsed < bounds.minDurationMs || samples.length + errors < bounds.minRuns;
  };
  let lastEnd = started;
  const client = async (): Promise<void> => {
    while (keepGoing()) {
      try {
        samples.push(await runOnce());
      } catch (error) {
        errors += 1;
        lastError = error;
      }
      lastEnd = performance.now();
    }
  };
  await Promise.all(Array.from({ length: bounds.concurrency }, client));
  if (samples.length === 0) {
    throw new Error(`every run failed (${errors}); last error: ${String(lastError)}`);
  }
  const totals = samples.map((s) => s.totalMs);
  const firsts = samples.map((s) => s.firstEventMs);
  return {
    runs: samples.length,
    errors,
    runsPerSecond: samples.length / ((lastEnd - started) / 1000),
    p50Ms: percentile(totals, 50),
    p95Ms: percentile(totals, 95),
    firstEventP50Ms: percentile(firsts, 50),
    firstEventP95Ms: percentile(firsts, 95),
  };
}
