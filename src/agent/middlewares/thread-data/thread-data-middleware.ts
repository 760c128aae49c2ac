import { HumanMessage } from "@langchain/core/messages";
import { type Clock, systemClock } from "../../../core/clock.js";
import type { FawnPaths } from "../../../core/paths.js";
import { latestUserIndex } from "../conversation.js";
import type { AgentMiddleware } from "../types.js";

export interface ThreadDataOptions {
  paths: FawnPaths;
  clock?: Clock;
}

/**
 * Records where the thread's files live (`thread_data`: host paths of workspace, uploads and
 * outputs; folders are created lazily by whoever writes) and stamps this run's user message with
 * the run id and time. A run without a thread id is refused: every file
 * path hangs off it.
 */
export function createThreadDataMiddleware(options: ThreadDataOptions): AgentMiddleware {
  return {
    name: "ThreadDataMiddleware",
    tag: "thread_data",
    async beforeAgent(state, runtime) {
      if (!runtime.threadId) {
        throw new Error(
          "Thread ID is required: pass thread_id in the run's context or configurable.",
        );
      }
      const paths = options.paths.threadPaths({
        userId: runtime.userId,
        threadId: runtime.threadId,
      });
      const threadData = {
        workspace_path: paths.workspaceDir,
        uploads_path: paths.uploadsDir,
        outputs_path: paths.outputsDir,
      };
      const index = latestUserIndex(state.messages);
      const message = state.messages[index];
      // Only the run's new message is stamped; an earlier run's message keeps its stamp.
      if (!message || !HumanMessage.isInstance(message) || message.additional_kwargs.run_id) {
        return { update: { thread_data: threadData } };
      }
      const timestamp = (options.clock ?? systemClock).now().toISOString();
      const stamped = new HumanMessage({
        content: message.content,
        id: message.id,
        name: message.name ?? "user-input",
        additional_kwargs: {
          ...message.additional_kwargs,
          ...(runtime.runId ? { run_id: runtime.runId } : {}),
          timestamp,
        },
        response_metadata: message.response_metadata,
      });
      runtime.record("beforeAgent", "stamped_user_message", {
        message_id: message.id ?? null,
        run_id: runtime.runId ?? null,
      });
      return { update: { thread_data: threadData, messages: [stamped] } };
    },
  };
}
