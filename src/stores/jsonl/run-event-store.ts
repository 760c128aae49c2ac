import { randomUUID } from "node:crypto";
import {
  appendFile,
  mkdir,
  readdir,
  readFile,
  rename,
  rm,
  stat,
  truncate,
  writeFile,
} from "node:fs/promises";
import { dirname, join } from "node:path";
import { KeyedMutex } from "../../core/async/keyed-mutex.js";
import { type Clock, isoNow, systemClock } from "../../core/clock.js";
import { ConflictError } from "../../core/errors.js";
import { assertValidId } from "../../core/ids.js";
import type {
  EvidenceReceipt,
  ListEventsOptions,
  ListMessagesOptions,
  NewRunEvent,
  PutIfAbsentOptions,
  PutIfAbsentResult,
  RunEvent,
  RunEventStore,
} from "../../ports/run-event-store.js";
import { assertFence, type FencedWrite, type RunOwnership } from "../../ports/write-fence.js";
import {
  filterRunEvents,
  ownedBy,
  receiptOf,
  toRunEvent,
  unstorable,
  validateNewEvent,
  windowMessages,
} from "../memory/run-event-store.js";

const RUN_FILE_SUFFIX = ".jsonl";

export interface JsonlRunEventStoreOptions {
  clock?: Clock;
  /** The run rows that fenced writes are checked against (the paired run store). */
  owners?: RunOwnership;
}

/** One event ready to append: its final envelope and the exact line that stores it. */
interface Staged {
  file: string;
  line: string;
  event: RunEvent;
}

/**
 * Events as JSON lines in `{base}/threads/{thread_id}/runs/{run_id}.jsonl`. Single-process only:
 * the per-thread seq counter lives in memory, seeded lazily from the highest seq on disk. Every
 * access to a thread, reads included, runs under that thread's lock, so a reader never sees half
 * of an append and `putIfAbsent`'s check, guard and write cannot interleave with a deletion.
 */
export class JsonlRunEventStore implements RunEventStore {
  private readonly locks = new KeyedMutex<string>();
  private readonly lastSeq = new Map<string, number>();
  private readonly clock: Clock;
  private readonly owners: RunOwnership | undefined;

  constructor(
    private readonly baseDir: string,
    options: JsonlRunEventStoreOptions = {},
  ) {
    this.clock = options.clock ?? systemClock;
    this.owners = options.owners;
  }

  /**
   * The fence is checked under the thread's lock before the append: a takeover may land during
   * the file write, but the new owner's own writes queue behind this one on the same lock, so
   * nothing of the old owner's can follow them.
   */
  async put(event: NewRunEvent, options: FencedWrite = {}): Promise<RunEvent> {
    this.validate(event);
    return this.locks.runExclusive(event.thread_id, () => {
      assertFence(this.owners, options.fence, "append a run event");
      return this.appendOne(event);
    });
  }

  async putBatch(events: readonly NewRunEvent[], options: FencedWrite = {}): Promise<RunEvent[]> {
    for (const event of events) this.validate(event);
    if (events.length === 0) return [];
    return this.locks.runExclusiveAll(
      events.map((event) => event.thread_id),
      () => {
        assertFence(this.owners, options.fence, "append run events");
        return this.appendLocked(events);
      },
    );
  }

  async putIfAbsent(
    event: NewRunEvent,
    options: PutIfAbsentOptions = {},
  ): Promise<PutIfAbsentResult> {
    this.validate(event);
    return this.locks.runExclusive(event.thread_id, async () => {
      assertFence(this.owners, options.fence, `write ${event.event_type}`);
      const existing = (await this.readRun(event.thread_id, event.run_id)).find(
        (stored) => stored.event_type === event.event_type,
      );
      if (existing) return { event: existing, created: false };
      if (options.guard && !(await options.guard())) {
        throw new ConflictError(
          `Refused to write ${event.event_type} for run ${event.run_id}: its guard failed.`,
        );
      }
      assertFence(this.owners, options.fence, `write ${event.event_type}`);
      return { event: await this.appendOne(event), created: true };
    });
  }

  async listEvents(
    threadId: string,
    runId: string,
    options: ListEventsOptions = {},
  ): Promise<RunEvent[]> {
    this.validateIds(threadId, runId);
    return this.locks.runExclusive(threadId, async () =>
      filterRunEvents(await this.readRun(threadId, runId), options),
    );
  }

  async listMessages(threadId: string, options: ListMessagesOptions = {}): Promise<RunEvent[]> {
    this.validateIds(threadId);
    return this.locks.runExclusive(threadId, async () =>
      windowMessages(await this.readThread(threadId), options),
    );
  }

  async listMessagesByRun(
    threadId: string,
    runId: string,
    options: ListMessagesOptions = {},
  ): Promise<RunEvent[]> {
    this.validateIds(threadId, runId);
    return this.locks.runExclusive(threadId, async () =>
      windowMessages(await this.readRun(threadId, runId), options),
    );
  }

  async countMessages(threadId: string): Promise<number> {
    this.validateIds(threadId);
    return this.locks.runExclusive(threadId, async () => {
      const events = await this.readThread(threadId);
      return events.filter((event) => event.category === "message").length;
    });
  }

  async deleteByThread(threadId: string, scope: { userId?: string | null } = {}): Promise<number> {
    this.validateIds(threadId);
    return this.locks.runExclusive(threadId, async () => {
      let removed = 0;
      for (const runId of await this.runIdsOf(threadId)) {
        removed += await this.removeFromRun(threadId, runId, (e) => ownedBy(e, scope.userId));
      }
      await this.dropThreadIfEmpty(threadId);
      return removed;
    });
  }

  async deleteByRun(
    threadId: string,
    runId: string,
    scope: { userId?: string | null } = {},
  ): Promise<number> {
    this.validateIds(threadId, runId);
    return this.locks.runExclusive(threadId, async () => {
      const removed = await this.removeFromRun(threadId, runId, (e) => ownedBy(e, scope.userId));
      await this.dropThreadIfEmpty(threadId);
      return removed;
    });
  }

  async evidenceReceipt(threadId: string, runId: string): Promise<EvidenceReceipt> {
    this.validateIds(threadId, runId);
    return this.locks.runExclusive(threadId, async () =>
      receiptOf(await this.readRun(threadId, runId)),
    );
  }

  async close(): Promise<void> {}

  private async appendOne(event: NewRunEvent): Promise<RunEvent> {
    const [written] = await this.appendLocked([event]);
    if (!written) throw new Error("append returned no event for a one-event batch");
    return written;
  }

  /**
   * Stamps seqs, then appends each run file's lines with one write. If any write fails, the files
   * already appended are cut back to their old length and no counter moves: all or nothing.
   * Callers hold the locks of every thread in `events`.
   */
  private async appendLocked(events: readonly NewRunEvent[]): Promise<RunEvent[]> {
    const next = new Map<string, number>();
    for (const threadId of new Set(events.map((event) => event.thread_id))) {
      next.set(threadId, await this.loadLastSeq(threadId));
    }
    const now = isoNow(this.clock);
    const staged: Staged[] = events.map((event) => {
      const seq = (next.get(event.thread_id) ?? 0) + 1;
      next.set(event.thread_id, seq);
      // Serializing before the first write means an unserializable value writes nothing.
      const line = serialize(event, toRunEvent(event, seq, now));
      const stored: RunEvent = JSON.parse(line);
      return { file: this.runFile(event.thread_id, event.run_id), line, event: stored };
    });
    await appendAllOrNothing(staged);
    for (const [threadId, seq] of next) this.lastSeq.set(threadId, seq);
    return staged.map((item) => item.event);
  }

  /** The thread's highest seq: cached, or read from disk once (repairing a torn last line). */
  private async loadLastSeq(threadId: string): Promise<number> {
    const cached = this.lastSeq.get(threadId);
    if (cached !== undefined) return cached;
    let max = 0;
    for (const runId of await this.runIdsOf(threadId)) {
      const file = this.runFile(threadId, runId);
      await repairTornTail(file);
      for (const event of parseLines(await readText(file))) max = Math.max(max, event.seq);
    }
    this.lastSeq.set(threadId, max);
    return max;
  }

  private async removeFromRun(
    threadId: string,
    runId: string,
    doomed: (event: RunEvent) => boolean,
  ): Promise<number> {
    // Seed the counter first so seqs of deleted events are not handed out again.
    await this.loadLastSeq(threadId);
    const file = this.runFile(threadId, runId);
    const events = parseLines(await readText(file));
    const kept = events.filter((event) => !doomed(event));
    const removed = events.length - kept.length;
    if (removed === 0) return 0;
    if (kept.length === 0) await rm(file, { force: true });
    else await replaceFile(file, kept.map((event) => `${JSON.stringify(event)}\n`).join(""));
    return removed;
  }

  /** An emptied thread disappears from disk and starts over at seq 1. */
  private async dropThreadIfEmpty(threadId: string): Promise<void> {
    if ((await this.runIdsOf(threadId)).length > 0) return;
    await rm(this.threadDir(threadId), { recursive: true, force: true });
    this.lastSeq.delete(threadId);
  }

  private async readRun(threadId: string, runId: string): Promise<RunEvent[]> {
    return parseLines(await readText(this.runFile(threadId, runId))).sort((a, b) => a.seq - b.seq);
  }

  private async readThread(threadId: string): Promise<RunEvent[]> {
    const runs = await Promise.all(
      (await this.runIdsOf(threadId)).map(async (runId) =>
        parseLines(await readText(this.runFile(threadId, runId))),
      ),
    );
    return runs.flat().sort((a, b) => a.seq - b.seq);
  }

  private async runIdsOf(threadId: string): Promise<string[]> {
    try {
      const names = await readdir(join(this.threadDir(threadId), "runs"));
      return names
        .filter((name) => name.endsWith(RUN_FILE_SUFFIX))
        .map((name) => name.slice(0, -RUN_FILE_SUFFIX.length));
    } catch (error) {
      if (isMissing(error)) return [];
      throw error;
    }
  }

  private threadDir(threadId: string): string {
    return join(this.baseDir, "threads", threadId);
  }

  private runFile(threadId: string, runId: string): string {
    return join(this.threadDir(threadId), "runs", `${runId}${RUN_FILE_SUFFIX}`);
  }

  private validate(event: NewRunEvent): void {
    validateNewEvent(event);
    this.validateIds(event.thread_id, event.run_id);
  }

  /** Ids become path segments, so only the safe id alphabet is accepted. */
  private validateIds(threadId: string, runId?: string): void {
    assertValidId("thread", threadId);
    if (runId !== undefined) assertValidId("run", runId);
  }
}

async function appendAllOrNothing(staged: readonly Staged[]): Promise<void> {
  const byFile = new Map<string, string[]>();
  for (const item of staged) {
    const lines = byFile.get(item.file) ?? [];
    lines.push(item.line);
    byFile.set(item.file, lines);
  }
  const done: Array<{ file: string; sizeBefore: number | null }> = [];
  try {
    for (const [file, lines] of byFile) {
      const sizeBefore = await sizeOf(file);
      done.push({ file, sizeBefore });
      if (sizeBefore === null) await mkdir(dirname(file), { recursive: true });
      await appendFile(file, `${lines.join("\n")}\n`, "utf8");
    }
  } catch (error) {
    await Promise.allSettled(
      done.map(({ file, sizeBefore }) =>
        sizeBefore === null ? rm(file, { force: true }) : truncate(file, sizeBefore),
      ),
    );
    throw error;
  }
}

/** A crash mid-append can leave an unterminated last line; cut it so the next append starts clean. */
async function repairTornTail(file: string): Promise<void> {
  const text = await readText(file);
  if (text === "" || text.endsWith("\n")) return;
  const keep = text.slice(0, text.lastIndexOf("\n") + 1);
  await truncate(file, Buffer.byteLength(keep, "utf8"));
}

/** Writes a whole new version next to the file and renames it over: readers see old or new. */
async function replaceFile(file: string, text: string): Promise<void> {
  const temp = `${file}.${randomUUID()}.tmp`;
  try {
    await writeFile(temp, text, "utf8");
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

function serialize(input: NewRunEvent, event: RunEvent): string {
  try {
    return JSON.stringify(event);
  } catch (error) {
    throw unstorable(input, error);
  }
}

/** Complete lines only: an unterminated tail is an append that never finished. */
function parseLines(text: string): RunEvent[] {
  const lines = text.split("\n");
  lines.pop();
  const events: RunEvent[] = [];
  for (const line of lines) {
    if (line.trim() === "") continue;
    try {
      events.push(JSON.parse(line));
    } catch {
      // A corrupt line must not make the rest of the run unreadable.
    }
  }
  return events;
}

async function readText(file: string): Promise<string> {
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    if (isMissing(error)) return "";
    throw error;
  }
}

async function sizeOf(file: string): Promise<number | null> {
  try {
    return (await stat(file)).size;
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}

function isMissing(error: unknown): boolean {
  return error instanceof Error && "code" in error && error.code === "ENOENT";
}
