import { randomUUID } from "node:crypto";
import { z } from "zod";
import { isoNow } from "../../core/clock.js";
import { ConflictError } from "../../core/errors.js";
import { FawnPaths } from "../../core/paths.js";
import type { NewRunEvent, RunEventStore } from "../../ports/run-event-store.js";
import type { ThreadRow, ThreadStore } from "../../ports/thread-store.js";
import { messageType, type StateMessage, stateMessages } from "../state/state-messages.js";
import type { ThreadStateService } from "../state/thread-state-service.js";
import type { ThreadService } from "../threads/thread-service.js";
import { type BranchFilesMode, copyBranchFiles } from "./branch-files.js";
import { findBranchPoint } from "./branch-point.js";

const MAX_ID = 256;
export const SIDECAR_METADATA_KEY = "deerflow_sidecar";
export const BRANCH_METADATA_KEY = "deerflow_branch";
/** A branch gets its own sandbox and folders; the source's would point at the source's. */
const NOT_INHERITED_CHANNELS = ["sandbox", "thread_data"] as const;
const SEED_EVENT_TYPES: Record<string, string> = {
  human: "llm.human.input",
  ai: "llm.ai.response",
  tool: "llm.tool.result",
};

export const branchBody = z.object({
  message_id: z.string().min(1).max(MAX_ID),
  message_ids: z.array(z.string().min(1).max(MAX_ID)).max(100).default([]),
  title: z.string().max(256).nullish(),
});
export type BranchRequest = z.output<typeof branchBody>;

/** The reference's answer to `POST /threads/{id}/branches`. */
export interface BranchResult {
  thread_id: string;
  parent_thread_id: string;
  parent_checkpoint_id: string;
  branched_from_message_id: string;
  workspace_clone_mode: BranchFilesMode | "skipped_historical_turn";
  history_seed_mode: "seeded" | "skipped_empty" | "failed";
}

export interface ThreadBranchesDeps {
  home: string;
  threads: Pick<ThreadService, "getOwned">;
  threadRows: Pick<ThreadStore, "create" | "delete">;
  state: Pick<ThreadStateService, "history" | "forkAt" | "deleteThread">;
  events: Pick<RunEventStore, "putBatch">;
}

/**
 * A new thread of the caller's from a finished assistant turn of theirs: its state is the
 * source's state right after that turn (one root checkpoint, so later turns are not its
 * history), its row carries where it came from (`deerflow_branch`, `branch_parent_*`) and the
 * title. Steps, in order: fork the checkpoint (unreachable until the row exists), create the
 * row (now visible), then best effort: seed the branch's message journal with the inherited
 * conversation (the message pages read it) and, for the latest turn only, copy the thread's
 * files (files are not versioned, so an older turn's branch would see later files).
 */
export class ThreadBranches {
  private readonly paths: FawnPaths;

  constructor(private readonly deps: ThreadBranchesDeps) {
    this.paths = new FawnPaths(deps.home);
  }

  async branch(threadId: string, userId: string, request: BranchRequest): Promise<BranchResult> {
    const source = await this.deps.threads.getOwned(threadId, userId);
    if (source.metadata[SIDECAR_METADATA_KEY] === true) {
      throw new ConflictError("Branching is only available in the main conversation.");
    }
    const targets = new Set([request.message_id, ...request.message_ids]);
    const point = await findBranchPoint(this.deps.state, threadId, targets);
    const branchId = randomUUID();
    const now = isoNow();
    const metadata = {
      [BRANCH_METADATA_KEY]: true,
      branch_parent_thread_id: threadId,
      branch_parent_checkpoint_id: point.checkpointId,
      branch_parent_message_id: request.message_id,
      branch_created_at: now,
    };
    const title = request.title || defaultTitle(source);
    try {
      await this.deps.state.forkAt(threadId, point.checkpointId, branchId, {
        dropChannels: NOT_INHERITED_CHANNELS,
        metadata: { ...metadata, thread_id: branchId },
        ...(title ? { values: { title } } : {}),
      });
      await this.deps.threadRows.create({
        thread_id: branchId,
        user_id: userId,
        assistant_id: source.assistant_id,
        display_name: title,
        metadata,
        created_at: now,
      });
    } catch (error) {
      await this.deps.state.deleteThread(branchId).catch(() => undefined);
      await this.deps.threadRows.delete(branchId, { userId }).catch(() => false);
      throw error;
    }
    const history = await this.seedHistory(branchId, userId, stateMessages(point.state));
    const files = point.latestTurn
      ? await copyBranchFiles(
          this.paths.threadPaths({ userId, threadId }).userDataDir,
          this.paths.threadPaths({ userId, threadId: branchId }).userDataDir,
        )
      : "skipped_historical_turn";
    return {
      thread_id: branchId,
      parent_thread_id: threadId,
      parent_checkpoint_id: point.checkpointId,
      branched_from_message_id: request.message_id,
      workspace_clone_mode: files,
      history_seed_mode: history,
    };
  }

  /** The inherited conversation as the branch's first journal rows, under one seed run id. */
  private async seedHistory(
    branchId: string,
    userId: string,
    messages: StateMessage[],
  ): Promise<BranchResult["history_seed_mode"]> {
    const runId = `branch-seed-${branchId}`;
    const events: NewRunEvent[] = [];
    for (const message of messages) {
      const eventType = SEED_EVENT_TYPES[messageType(message) ?? ""];
      if (!eventType) continue;
      events.push({
        thread_id: branchId,
        run_id: runId,
        event_type: eventType,
        category: "message",
        content: message,
        metadata: { caller: "lead_agent", branch_seed: true },
        user_id: userId,
      });
    }
    if (events.length === 0) return "skipped_empty";
    try {
      await this.deps.events.putBatch(events);
      return "seeded";
    } catch {
      return "failed";
    }
  }
}

/** The source's title; a branch of a branch drops the "Branch:" prefixes it may carry. */
function defaultTitle(source: ThreadRow): string | null {
  let title = source.display_name?.trim() ?? "";
  if (source.metadata[BRANCH_METADATA_KEY] === true) {
    while (title.toLowerCase().startsWith("branch:")) title = title.slice("branch:".length).trim();
  }
  return title === "" ? null : title;
}
