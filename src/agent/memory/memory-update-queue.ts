import { resolve } from "node:path";
import { describeError } from "../../core/errors.js";
import { type Logger, rootLogger } from "../../core/logger.js";

/** Pending threads at most; beyond it the oldest waiting conversation is dropped. */
const MAX_PENDING = 1000;

export interface MemoryUpdateJob {
  userId: string;
  threadId: string;
  /** Quiet time before the job runs; a newer job for the thread restarts it. */
  delayMs: number;
  /**
   * Does the update. `stillWanted()` turns false once the user's memory was forgotten after
   * this job was queued: the job must then write nothing.
   */
  run(stillWanted: () => boolean): Promise<void>;
}

interface Pending {
  job: MemoryUpdateJob;
  epoch: number;
  timer: NodeJS.Timeout;
}

/**
 * Debounces memory updates per (user, thread): each finished run queues the thread's whole
 * conversation, replacing what was waiting and restarting the quiet timer, so a burst of runs
 * costs one model call. Timers do not keep the process alive; `flush` runs everything waiting
 * now (shutdown), bounded by a timeout.
 */
export class MemoryUpdateQueue {
  private readonly pending = new Map<string, Pending>();
  private readonly running = new Set<Promise<void>>();
  private readonly epochs = new Map<string, number>();
  private readonly logger: Logger;

  constructor(logger?: Logger) {
    this.logger = (logger ?? rootLogger).child({ component: "memory" });
  }

  get pendingCount(): number {
    return this.pending.size;
  }

  enqueue(job: MemoryUpdateJob): void {
    const key = keyOf(job);
    const earlier = this.pending.get(key);
    if (earlier) {
      clearTimeout(earlier.timer);
      this.pending.delete(key);
    } else if (this.pending.size >= MAX_PENDING) {
      const first = this.pending.entries().next().value;
      if (first) {
        const [oldestKey, oldest] = first;
        clearTimeout(oldest.timer);
        this.pending.delete(oldestKey);
        this.logger.warn(
          { userId: oldest.job.userId, threadId: oldest.job.threadId },
          "memory queue full; the oldest waiting conversation was dropped",
        );
      }
    }
    const timer = setTimeout(() => this.start(key), job.delayMs);
    timer.unref();
    this.pending.set(key, { job, epoch: this.epochOf(job.userId), timer });
  }

  /** Drops the user's waiting jobs and disarms running ones (memory was forgotten). */
  forgetUser(userId: string): void {
    this.epochs.set(userId, this.epochOf(userId) + 1);
    for (const [key, entry] of this.pending) {
      if (entry.job.userId !== userId) continue;
      clearTimeout(entry.timer);
      this.pending.delete(key);
    }
  }

  /** Runs every waiting job now and waits for all jobs, at most `timeoutMs`. */
  async flush(timeoutMs: number): Promise<{ completed: boolean }> {
    for (const key of [...this.pending.keys()]) this.start(key);
    const all = Promise.all(this.running).then(() => true);
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<false>((resolveTimeout) => {
      timer = setTimeout(() => resolveTimeout(false), timeoutMs);
    });
    const completed = await Promise.race([all, timedOut]);
    clearTimeout(timer);
    if (!completed) {
      this.logger.warn({ timeoutMs }, "memory updates still running at shutdown were abandoned");
    }
    return { completed };
  }

  private start(key: string): void {
    const entry = this.pending.get(key);
    if (!entry) return;
    clearTimeout(entry.timer);
    this.pending.delete(key);
    const { job, epoch } = entry;
    const stillWanted = () => this.epochOf(job.userId) === epoch;
    const running = job
      .run(stillWanted)
      .catch((error: unknown) => {
        this.logger.warn(
          { userId: job.userId, threadId: job.threadId, error: describeError(error) },
          "memory update failed; memory is unchanged",
        );
      })
      .finally(() => this.running.delete(running));
    this.running.add(running);
  }

  private epochOf(userId: string): number {
    return this.epochs.get(userId) ?? 0;
  }
}

function keyOf(job: Pick<MemoryUpdateJob, "userId" | "threadId">): string {
  return `${job.userId}\u0000${job.threadId}`;
}

/**
 * One queue per FAWN_HOME in a process: the lead agent queues into it, the gateway's "forget"
 * drops from it, and createFawn's close flushes it.
 */
const queues = new Map<string, MemoryUpdateQueue>();

export function memoryQueueFor(home: string, logger?: Logger): MemoryUpdateQueue {
  const key = resolve(home);
  let queue = queues.get(key);
  if (!queue) {
    queue = new MemoryUpdateQueue(logger);
    queues.set(key, queue);
  }
  return queue;
}

/** Shutdown: runs the home's waiting memory updates now, bounded; a no-op when none exist. */
export async function flushMemoryUpdates(home: string, timeoutMs: number): Promise<void> {
  await queues.get(resolve(home))?.flush(timeoutMs);
}
