import type { z } from "zod";
import { isoNow } from "../../core/clock.js";
import { ConflictError, NotFoundError } from "../../core/errors.js";
import { newThreadId } from "../../core/ids.js";
import { FawnPaths } from "../../core/paths.js";
import type { StateSuperstep } from "../../ports/graph-state-access.js";
import type { RunEventStore } from "../../ports/run-event-store.js";
import type { RunStore } from "../../ports/run-store.js";
import type { ThreadRow, ThreadStatus, ThreadStore } from "../../ports/thread-store.js";
import { toGraphCommand } from "../../runtime/graph-command.js";
import type { RunManager } from "../../runtime/run-manager.js";
import type { CheckpointRef } from "../state/thread-state.js";
import type { ThreadStateService } from "../state/thread-state-service.js";
import { copyThread, type ThreadCopyStep } from "./thread-copy.js";
import { type ThreadOperationKind, withThreadOperation } from "./thread-operation.js";
import { type ApiThread, toApiThread } from "./thread-response.js";
import type {
  ThreadCreateSuperstep,
  ThreadSearchBody,
  threadCreateBody,
} from "./thread-schemas.js";
import { searchThreads } from "./thread-search.js";

/** Metadata keys the server owns; a client cannot set them. */
const SERVER_OWNED_METADATA = ["user_id", "owner_id"];

export function clientMetadata(
  metadata: Record<string, unknown> | null | undefined,
): Record<string, unknown> {
  const out = { ...(metadata ?? {}) };
  for (const key of SERVER_OWNED_METADATA) delete out[key];
  return out;
}

export interface ThreadServiceDeps {
  /** `FAWN_HOME`: where each thread's folder lives. */
  home: string;
  /** Thread operations (delete, state writes) hold the thread's active slot through it. */
  manager: Pick<RunManager, "createOrReject" | "setStatus" | "forget" | "localRecords">;
  stores: { runs: RunStore; events: RunEventStore; threads: ThreadStore };
  /** Called before each step of a copy (tests inject faults here). */
  onCopyStep?: (step: ThreadCopyStep) => Promise<void>;
}

export type { ThreadCopyStep } from "./thread-copy.js";

/** A state write: one or more values updates applied in order, each on the previous one's head. */
export interface ThreadStateWrite {
  updates: Record<string, unknown>[];
  asNode: string | undefined;
  checkpoint: { checkpoint_id: string | null; checkpoint_ns: string | null };
}

/** Thread rows and their state, always on behalf of one user: another user's ids are 404. */
export class ThreadService {
  private readonly paths: FawnPaths;
  private readonly stores: ThreadServiceDeps["stores"];

  constructor(
    private readonly deps: ThreadServiceDeps,
    private readonly state: ThreadStateService,
  ) {
    this.paths = new FawnPaths(deps.home);
    this.stores = deps.stores;
  }

  async getOwned(threadId: string, userId: string): Promise<ThreadRow> {
    const row = await this.stores.threads.get(threadId, { userId });
    if (!row) throw new NotFoundError(`Thread ${threadId} not found.`);
    return row;
  }

  /**
   * The caller's thread, or null when no thread has that id yet (routes the reference serves
   * before a new chat's thread exists: uploads, goal). Another user's thread is the same 404 as
   * `getOwned`; files kept for an id nobody owns yet lie in the caller's own folder.
   */
  async getOwnedOrUnclaimed(threadId: string, userId: string): Promise<ThreadRow | null> {
    const row = await this.stores.threads.get(threadId);
    if (row === null) return null;
    if (row.user_id !== userId) throw new NotFoundError(`Thread ${threadId} not found.`);
    return row;
  }

  /** The row with its head state, as the API shows it. */
  async read(threadId: string, userId: string): Promise<ApiThread> {
    return this.withState(await this.getOwned(threadId, userId));
  }

  /** The row as the API shows it: its head state, and `interrupted` when that waits on a human. */
  private async withState(row: ThreadRow): Promise<ApiThread> {
    const state = await this.state.state(row.thread_id, {}, { thread: row });
    return toApiThread(row, state, await this.state.isInterrupted(row.thread_id, state));
  }

  /**
   * Create, or (by default, and with `if_exists: do_nothing`) return the caller's existing thread
   * of that id. `if_exists: raise` and an id taken by another user are 409.
   */
  async create(userId: string, body: z.output<typeof threadCreateBody>): Promise<ApiThread> {
    const threadId = body.thread_id ?? newThreadId();
    const metadata = clientMetadata(body.metadata);
    // `graph_id` names the thread's graph where its state is looked up (the SDK sends it in metadata).
    if (body.graph_id && metadata.graph_id === undefined) metadata.graph_id = body.graph_id;
    const { thread, created } = await this.stores.threads.create({
      thread_id: threadId,
      user_id: userId,
      assistant_id: body.assistant_id ?? null,
      metadata,
      created_at: isoNow(),
    });
    if (!created) {
      if (thread.user_id !== userId || body.if_exists === "raise") {
        throw new ConflictError(`Thread ${threadId} already exists; choose another thread_id.`);
      }
      return this.withState(thread);
    }
    if (body.supersteps && body.supersteps.length > 0) {
      try {
        await this.state.bulkUpdate(threadId, body.supersteps.map(toSuperstep));
      } catch (error) {
        // The thread is this call's own: a history it could not build leaves no thread behind.
        await this.state.deleteThread(threadId).catch(() => undefined);
        await this.stores.threads.delete(threadId, { userId }).catch(() => false);
        throw error;
      }
    }
    return this.withState(thread);
  }

  /** A copy of the caller's thread with its metadata and history (see `copyThread`). */
  async copy(threadId: string, userId: string): Promise<ApiThread> {
    const source = await this.getOwned(threadId, userId);
    const copy = await copyThread(
      { threads: this.stores.threads, state: this.state, onStep: this.deps.onCopyStep },
      source,
      userId,
    );
    return this.withState(copy);
  }

  /** Create the caller's thread if it does not exist yet (run creation with `if_not_exists`). */
  async ensure(
    threadId: string,
    userId: string,
    metadata: Record<string, unknown> = {},
  ): Promise<ThreadRow> {
    const { thread } = await this.stores.threads.create({
      thread_id: threadId,
      user_id: userId,
      metadata: clientMetadata(metadata),
      created_at: isoNow(),
    });
    if (thread.user_id !== userId) throw new NotFoundError(`Thread ${threadId} not found.`);
    return thread;
  }

  async patch(
    threadId: string,
    userId: string,
    metadata: Record<string, unknown>,
  ): Promise<ApiThread> {
    const row = await this.stores.threads.update(
      threadId,
      { metadata: clientMetadata(metadata) },
      { userId },
    );
    if (!row) throw new NotFoundError(`Thread ${threadId} not found.`);
    return this.withState(row);
  }

  /**
   * Removes checkpoints, events, runs, the row and the thread's folder (workspace, uploads,
   * outputs); 409 while any work is in flight.
   */
  async delete(threadId: string, userId: string): Promise<void> {
    await this.getOwned(threadId, userId);
    const { manager } = this.deps;
    const { stores } = this;
    await withThreadOperation(
      { manager, runs: stores.runs },
      threadId,
      userId,
      "delete",
      async () => {
        await this.state.deleteThread(threadId);
        await stores.events.deleteByThread(threadId);
        await stores.runs.deleteByThread(threadId);
        for (const record of manager.localRecords()) {
          if (record.threadId === threadId) manager.forget(record.runId);
        }
        await stores.threads.delete(threadId, { userId });
        // Last: once the row is gone no new run can start on the thread, and a failure here
        // leaves only files nobody can reach through the API.
        await this.paths.deleteThreadDir({ threadId, userId });
      },
    );
  }

  /**
   * `work` as one short operation on the caller's thread: 409 while a run or another operation is
   * in flight on it (in any process), and no run starts until it is done.
   */
  async withOperation<T>(
    threadId: string,
    userId: string,
    kind: ThreadOperationKind,
    work: () => Promise<T>,
  ): Promise<T> {
    await this.getOwned(threadId, userId);
    return withThreadOperation(
      { manager: this.deps.manager, runs: this.stores.runs },
      threadId,
      userId,
      kind,
      work,
    );
  }

  /**
   * Apply the updates as one thread operation (409 while a run is in flight) and copy a `title`
   * in the last one to the thread row. Answers the last checkpoint written.
   */
  async writeState(
    threadId: string,
    userId: string,
    write: ThreadStateWrite,
  ): Promise<CheckpointRef | null> {
    await this.getOwned(threadId, userId);
    const { manager } = this.deps;
    const { stores } = this;
    return withThreadOperation(
      { manager, runs: stores.runs },
      threadId,
      userId,
      "checkpoint_write",
      async () => {
        let at = write.checkpoint;
        let last: CheckpointRef | null = null;
        for (const values of write.updates) {
          last = await this.state.update(threadId, {
            values,
            asNode: write.asNode,
            checkpoint: at,
          });
          at = { checkpoint_id: last.checkpoint_id, checkpoint_ns: last.checkpoint_ns };
        }
        const title = write.updates.at(-1)?.title;
        if (typeof title === "string" && title.length > 0) {
          await stores.threads.updateDisplayName(
            threadId,
            title.slice(0, 500),
            new Date().toISOString(),
          );
        }
        return last;
      },
    );
  }

  async search(userId: string, body: ThreadSearchBody): Promise<ApiThread[]> {
    return searchThreads(this.stores.threads, userId, body);
  }

  async count(
    userId: string,
    filter: { metadata?: Record<string, unknown> | null; status?: ThreadStatus | null },
  ): Promise<number> {
    return this.stores.threads.count({
      userId,
      ...(filter.metadata ? { metadata: filter.metadata } : {}),
      ...(filter.status ? { status: filter.status } : {}),
    });
  }
}

function toSuperstep(step: ThreadCreateSuperstep): StateSuperstep {
  return {
    updates: step.updates.map((update) => ({
      values: update.command != null ? toGraphCommand(update.command) : update.values,
      ...(update.as_node ? { asNode: update.as_node } : {}),
    })),
  };
}
