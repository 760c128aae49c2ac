import { type IntervalHistogram, monitorEventLoopDelay } from "node:perf_hooks";

export interface LoopDelay {
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  samples: number;
}

/** The histogram's sampling timer interval. */
const RESOLUTION_MS = 5;

/**
 * Event-loop delay over a window, from `perf_hooks.monitorEventLoopDelay`. The histogram records
 * the time between its timer's ticks, so an idle loop reads one resolution (5 ms): that interval
 * is subtracted to report the delay itself.
 */
export class LoopDelayProbe {
  private histogram: IntervalHistogram | null = null;

  start(): void {
    this.histogram?.disable();
    this.histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
    this.histogram.enable();
  }

  stop(): LoopDelay {
    const histogram = this.histogram;
    if (!histogram) throw new Error("loop-delay probe was not started");
    histogram.disable();
    this.histogram = null;
    const toMs = (ns: number): number => Math.max(0, ns / 1e6 - RESOLUTION_MS);
    return {
      p50Ms: toMs(histogram.percentile(50)),
      p99Ms: toMs(histogram.percentile(99)),
      maxMs: toMs(histogram.max),
      samples: histogram.count,
    };
  }
}
