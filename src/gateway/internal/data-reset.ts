import { ConflictError, NotFoundError } from "../../core/errors.js";
import { DEFAULT_USER_ID } from "../../core/paths.js";
import type { AssistantStore } from "../../ports/assistant-store.js";
import type { GraphStoreBackend } from "../../ports/graph-store.js";
import type { ThreadStore } from "../../ports/thread-store.js";
import type { GatewayRunManager } from "../gateway-deps.js";
import type { RunGateway } from "../runs/run-gateway.js";
import type { ThreadService } from "../threads/thread-service.js";

/** What `POST /internal/truncate` deletes (the LangGraph dev server's flags). */
export interface TruncateParts {
  runs?: boolean;
  threads?: boolean;
  assistants?: boolean;
  store?: boolean;
  checkpoint?: boolean;
}

export interface DataResetDeps {
  threads: ThreadService;
  threadRows: ThreadStore;
  runs: RunGateway;
  manager: Pick<GatewayRunManager, "localRecords">;
  assistants: AssistantStore;
  graphStore: GraphStoreBackend | null;
}

const PAGE = 500;
/** A thread whose run is still finalizing answers 409 for a moment; retries stay bounded. */
const DELETE_ATTEMPTS = 5;

/**
 * Empties the server for test suites written against the LangGraph dev server (served only with
 * `server.allow_truncate`). Deletion goes through the same paths as the API's, so runs, events,
 * checkpoints and thread folders go together; active runs are interrupted and awaited first.
 * Runs and checkpoints live with their threads here, so any of `runs`, `threads` or `checkpoint`
 * deletes the threads. System assistants (one per served graph) stay.
 */
export class DataReset {
  constructor(private readonly deps: DataResetDeps) {}

  /**
   * Deletes what the flags name that was created before the call (`now`): a thread or assistant
   * made while the reset runs (a test starting as another's reset ends) is left alone.
   */
  async truncate(parts: TruncateParts, now: Date = new Date()): Promise<void> {
    const cutoff = now.getTime();
    if (parts.runs || parts.threads || parts.checkpoint) await this.deleteThreads(cutoff);
    if (parts.assistants) await this.deleteAssistants(cutoff);
    if (parts.store) await this.deps.graphStore?.deleteAll();
  }

  private async deleteThreads(cutoff: number): Promise<void> {
    const doomed: { threadId: string; userId: string }[] = [];
    for (let offset = 0; ; offset += PAGE) {
      const rows = await this.deps.threadRows.search({ limit: PAGE, offset, sortBy: "thread_id" });
      for (const row of rows) {
        if (Date.parse(row.created_at) > cutoff) continue;
        doomed.push({ threadId: row.thread_id, userId: row.user_id ?? DEFAULT_USER_ID });
      }
      if (rows.length < PAGE) break;
    }
    const threadIds = new Set(doomed.map((thread) => thread.threadId));
    await this.stopActiveRuns((threadId) => threadIds.has(threadId));
    for (const { threadId, userId } of doomed) await this.deleteThread(threadId, userId);
  }

  /** Interrupts and awaits the active runs of the threads `doomed` names. */
  private async stopActiveRuns(doomed: (threadId: string) => boolean): Promise<void> {
    const active = this.deps.manager
      .localRecords()
      .filter((record) => record.isActive() && doomed(record.threadId));
    await Promise.all(
      active.map(async (record) => {
        await this.deps.runs.interrupt(record.runId);
        await this.deps.runs.waitForEnd(record.runId);
      }),
    );
  }

  private async deleteThread(threadId: string, userId: string): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.deps.threads.delete(threadId, userId);
        return;
      } catch (error) {
        // Deleted meanwhile (another reset): nothing left to do.
        if (error instanceof NotFoundError) return;
        if (!(error instanceof ConflictError) || attempt === DELETE_ATTEMPTS) throw error;
        await this.stopActiveRuns((id) => id === threadId);
      }
    }
  }

  private async deleteAssistants(cutoff: number): Promise<void> {
    const { assistants } = this.deps;
    const doomed: string[] = [];
    for (let offset = 0; ; offset += PAGE) {
      const rows = await assistants.search({ limit: PAGE, offset, sortBy: "assistant_id" });
      for (const row of rows) {
        const made = Date.parse(row.created_at);
        if (row.metadata.created_by !== "system" && !(made > cutoff)) doomed.push(row.assistant_id);
      }
      if (rows.length < PAGE) break;
    }
    for (const assistantId of doomed) await assistants.delete(assistantId);
  }
}
