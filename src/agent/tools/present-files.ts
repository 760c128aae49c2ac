import { ToolMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { Command } from "@langchain/langgraph";
import { z } from "zod";
import type { FawnPaths } from "../../core/paths.js";
import { threadScopeOf } from "./thread-scope.js";
import { resolvePresentableFile, ToolPathError } from "./user-data-path.js";

const presentFilesSchema = z.object({
  filepaths: z
    .array(z.string())
    .min(1)
    .describe("Files to show the user, each under /mnt/user-data/outputs."),
});

export interface PresentFilesToolOptions {
  paths: FawnPaths;
}

/**
 * `present_files`: makes output files visible to the user by adding them to the thread's
 * `artifacts`. All paths are checked first; one bad path rejects the whole call, so the state
 * never holds a partial presentation.
 */
export function createPresentFilesTool(options: PresentFilesToolOptions) {
  return tool(
    async (input, config) => {
      const scope = threadScopeOf(config);
      const artifacts: string[] = [];
      try {
        for (const path of input.filepaths) {
          const file = await resolvePresentableFile(options.paths, scope, path);
          if (!artifacts.includes(file.virtualPath)) artifacts.push(file.virtualPath);
        }
      } catch (error) {
        if (error instanceof ToolPathError) return error.message;
        throw error;
      }
      const toolCallId = config.toolCall?.id;
      // Without a tool call there is no message to attach the state update to.
      if (!toolCallId) return `Presented: ${artifacts.join(", ")}`;
      return new Command({
        update: {
          artifacts,
          messages: [
            new ToolMessage({
              content: "Successfully presented files",
              tool_call_id: toolCallId,
              name: "present_files",
            }),
          ],
        },
      });
    },
    {
      name: "present_files",
      description:
        "Present finished files to the user. Call it once your deliverables are written to /mnt/user-data/outputs; files that are not presented are not delivered.",
      schema: presentFilesSchema,
    },
  );
}
