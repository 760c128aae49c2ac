import { ToolMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { Command } from "@langchain/langgraph";
import { z } from "zod";
import type { FawnPaths } from "../../../core/paths.js";
import { threadScopeOf } from "../../tools/thread-scope.js";
import { ImageFileError, readThreadImage } from "./image-file.js";

export const VIEW_IMAGE_TOOL = "view_image";

/**
 * `view_image` (vision models only): checks the image and records it in `viewed_images`; only
 * metadata goes into the thread. ViewImageMiddleware attaches the pixels to the next model
 * request, so base64 never lands in a checkpoint.
 */
export function createViewImageTool(options: { paths: FawnPaths }) {
  return tool(
    async (input, config) => {
      const scope = threadScopeOf(config);
      let image: Awaited<ReturnType<typeof readThreadImage>>;
      try {
        image = await readThreadImage(options.paths, scope, input.image_path);
      } catch (error) {
        if (error instanceof ImageFileError) return error.message;
        throw error;
      }
      const toolCallId = config.toolCall?.id;
      if (!toolCallId) return "Successfully read image";
      return new Command({
        update: {
          viewed_images: {
            [image.virtualPath]: {
              mime_type: image.mimeType,
              size: image.bytes.length,
              actual_path: image.hostPath,
            },
          },
          messages: [
            new ToolMessage({
              content: "Successfully read image",
              tool_call_id: toolCallId,
              name: VIEW_IMAGE_TOOL,
              artifact: { viewed_image_path: image.virtualPath },
            }),
          ],
        },
      });
    },
    {
      name: VIEW_IMAGE_TOOL,
      description:
        "Look at an image file (.png, .jpg, .jpeg, .webp, .gif, up to 20 MiB) under /mnt/user-data/uploads, /mnt/user-data/workspace or /mnt/user-data/outputs.",
      schema: z.object({
        image_path: z
          .string()
          .describe("Virtual path of the image, e.g. /mnt/user-data/uploads/chart.png"),
      }),
    },
  );
}
