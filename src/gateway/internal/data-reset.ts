import { ConflictError } from "../../core/errors.js";
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

  async truncate(parts: TruncateParts): Promise<void> {
    if (parts.runs || parts.threads || parts.checkpoint) await this.deleteThreads();
    if (parts.assistants) await this.deleteAssistants();
    if (parts.store) await this.deps.graphStore?.deleteAll();
  }

  private async deleteThreads(): Promise<void> {
    await this.stopActiveRuns();
    for (;;) {
      const rows = await this.deps.threadRows.search({ limit: PAGE });
      if (rows.length === 0) return;
      for (const row of rows)
        await this.deleteThread(row.thread_id, row.user_id ?? DEFAULT_USER_ID);
    }
  }

  private async stopActiveRuns(): Promise<void> {
    const active = this.deps.manager.localRecords().filter((record) => record.isActive());
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
        if (!(error instanceof ConflictError) || attempt === DELETE_ATTEMPTS) throw error;
        await this.stopActiveRuns();
      }
    }
  }

  private async deleteAssistants(): Promise<void> {
    const { assistants } = this.deps;
    for (let offset = 0; ; ) {
      const rows = await assistants.search({ limit: PAGE, offset });
      if (rows.length === 0) return;
      const doomed = rows.filter((row) => row.metadata.created_by !== "system");
      for (const row of doomed) await assistants.delete(row.assistant_id);
      offset += rows.length - doomed.length;
    }
  }
}
