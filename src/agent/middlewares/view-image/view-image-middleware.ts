import { randomUUID } from "node:crypto";
import { type BaseMessage, HumanMessage } from "@langchain/core/messages";
import type { FawnPaths } from "../../../core/paths.js";
import { isAIMessage, isToolMessage } from "../conversation.js";
import type { AgentMiddleware } from "../types.js";
import { ImageFileError, readStable } from "./image-file.js";
import { createViewImageTool, VIEW_IMAGE_TOOL } from "./view-image-tool.js";

export const VIEW_IMAGE_CONTEXT_PREFIX = "view-image-context:";

/**
 * For vision models: brings `view_image`, and right after a step in which images
 * were viewed, adds them to the model request as a hidden message of image parts read from
 * disk. The message exists only in that request, so image bytes never reach the thread.
 */
export function createViewImageMiddleware(options: { paths: FawnPaths }): AgentMiddleware {
  return {
    name: "ViewImageMiddleware",
    tag: "view_image",
    tools: [createViewImageTool(options)],
    async wrapModelCall(request, next, runtime) {
      const paths = justViewed(request.messages);
      const images: Array<{ type: "image_url"; image_url: { url: string } }> = [];
      const shown: string[] = [];
      for (const path of paths) {
        const meta = request.state.viewed_images[path];
        if (!meta) continue;
        try {
          const bytes = await readStable(meta.actual_path, path);
          images.push({
            type: "image_url",
            image_url: { url: `data:${meta.mime_type};base64,${bytes.toString("base64")}` },
          });
          shown.push(path);
        } catch (error) {
          if (!(error instanceof ImageFileError)) throw error;
        }
      }
      if (images.length === 0) return next(request);
      runtime.record("wrapModelCall", "attached_images", { paths: shown });
      const context = new HumanMessage({
        id: `${VIEW_IMAGE_CONTEXT_PREFIX}${randomUUID()}`,
        content: [{ type: "text", text: `Images you viewed: ${shown.join(", ")}` }, ...images],
      });
      return next({ ...request, messages: [...request.messages, context] });
    },
  };
}

/** Paths viewed by the last answer's view_image calls, once all its calls have results. */
function justViewed(messages: readonly BaseMessage[]): string[] {
  const index = messages.findLastIndex((m) => isAIMessage(m));
  const answer = messages[index];
  if (!isAIMessage(answer)) return [];
  const calls = (answer.tool_calls ?? []).filter((call) => call.name === VIEW_IMAGE_TOOL);
  if (calls.length === 0) return [];
  const results = messages.slice(index + 1).filter(isToolMessage);
  if (results.length < (answer.tool_calls ?? []).length) return [];
  return results
    .filter((result) => result.name === VIEW_IMAGE_TOOL && result.status !== "error")
    .map((result): unknown => {
      const artifact: unknown = result.artifact;
      return typeof artifact === "object" && artifact !== null && "viewed_image_path" in artifact
        ? artifact.viewed_image_path
        : null;
    })
    .filter((path): path is string => typeof path === "string");
}
