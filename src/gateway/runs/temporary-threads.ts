import { describeError, isFawnError } from "../../core/errors.js";
import type { Logger } from "../../core/logger.js";
import type { ThreadService } from "../threads/thread-service.js";
import { type RunEndSource, waitForRunEnd } from "./run-waiter.js";

/** Keeps a temporary thread alive while a request still reads it (the `/runs/wait` answer). */
export interface ThreadHold {
  release(): void;
}

export const NO_HOLD: ThreadHold = { release: () => undefined };

/**
 * Stateless runs with `on_completion: "delete"` run on a temporary thread — one the call itself
 * created — which is deleted once the run has settled (finalizer done) and every hold is released,
 * like the LangGraph API's temporary threads. In-process and best-effort: a thread left behind by
 * a crash is an ordinary thread its owner can delete.
 */
export class TemporaryThreads {
  constructor(
    private readonly runs: RunEndSource,
    private readonly threads: ThreadService,
    private readonly logger: Logger,
  ) {}

  /** Schedules the deletion; it waits for the returned hold to be released. */
  deleteWhenSettled(runId: string, threadId: string, userId: string): ThreadHold {
    let release = (): void => undefined;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    void this.deleteAfter(runId, threadId, userId, released);
    return { release };
  }

  private async deleteAfter(
    runId: string,
    threadId: string,
    userId: string,
    released: Promise<void>,
  ): Promise<void> {
    const log = this.logger.child({ component: "gateway", runId, threadId });
    try {
      await waitForRunEnd(this.runs, runId);
      await released;
      await this.threads.delete(threadId, userId);
      log.debug({}, "temporary thread deleted");
    } catch (error) {
      // 409: someone started another run on it meanwhile; 404: already deleted. Either way it stays
      // (or is gone) as its owner left it.
      const expected = isFawnError(error) && (error.status === 409 || error.status === 404);
      log[expected ? "info" : "warn"](
        { error: describeError(error) },
        "temporary thread not deleted after its run",
      );
    }
  }
}
