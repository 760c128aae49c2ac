import { ToolMessage } from "@langchain/core/messages";
import { type StructuredToolInterface, tool } from "@langchain/core/tools";
import { Command } from "@langchain/langgraph";
import { z } from "zod";
import type { Logger } from "../../../../core/logger.js";
import type { FawnPaths } from "../../../../core/paths.js";
import { threadScopeOf } from "../../thread-scope.js";
import type { BrowserlessSettings } from "../browserless-api.js";
import { checkFetchTarget, type FetchTargetPolicy } from "../url-guard.js";
import { describeWebToolFailure } from "../web-tool-error.js";
import { type CaptureFormat, captureWithBrowserless } from "./browserless-screenshot.js";
import { captureFileName, writeCapture } from "./capture-output.js";

const webCaptureInput = z.object({
  url: z.string().trim().min(1).max(4000).describe("The absolute http(s) URL to capture."),
  filename: z
    .string()
    .max(200)
    .optional()
    .describe("Optional file name; folders are ignored and the extension follows the format."),
  full_page: z.boolean().optional().describe("Capture the whole page, not just the viewport."),
  output_format: z.enum(["png", "jpeg", "webp"]).optional(),
  viewport_width: z.number().int().min(200).max(4096).optional(),
  viewport_height: z.number().int().min(200).max(4096).optional(),
});

export interface WebCaptureToolOptions {
  name: string;
  /** Absent when the tools are only being validated; a call then says captures cannot be saved. */
  paths: FawnPaths | undefined;
  browserless: BrowserlessSettings;
  target: FetchTargetPolicy;
  defaults: { format: CaptureFormat; fullPage: boolean; width: number; height: number };
  secrets: readonly string[];
  logger: Logger;
}

/**
 * `web_capture(url)`: a screenshot of the rendered page, written to the thread's outputs and
 * presented as an artifact. The URL is checked like web_fetch's (public addresses only unless
 * the entry allows private ones), since Browserless may sit inside the deployment's network.
 */
export function createWebCaptureTool(options: WebCaptureToolOptions): StructuredToolInterface {
  const { defaults, logger } = options;
  return tool(
    async (input, config) => {
      const scope = threadScopeOf(config);
      const { paths } = options;
      if (!paths) return "Error: web_capture has no thread folders to save into here.";
      let message: string;
      let artifact: string | undefined;
      try {
        const target = await checkFetchTarget(input.url, options.target);
        const format = input.output_format ?? defaults.format;
        const capture = await captureWithBrowserless(options.browserless, {
          url: target.url,
          format,
          fullPage: input.full_page ?? defaults.fullPage,
          viewport: {
            width: input.viewport_width ?? defaults.width,
            height: input.viewport_height ?? defaults.height,
          },
          ...(config?.signal ? { signal: config.signal } : {}),
        });
        const name = captureFileName(input.filename, target.url, format);
        artifact = await writeCapture(paths, scope, name, capture.image);
        message = `Captured screenshot of ${target.url.href}: ${artifact}${capture.note ? `\n${capture.note}` : ""}`;
      } catch (error) {
        message = describeWebToolFailure(error, `Capturing ${input.url}`, options.secrets);
        logger.warn({ tool: options.name, provider: "Browserless" }, message);
      }
      const toolCallId = config?.toolCall?.id;
      if (!artifact || !toolCallId) return message;
      return new Command({
        update: {
          artifacts: [artifact],
          messages: [
            new ToolMessage({ content: message, tool_call_id: toolCallId, name: options.name }),
          ],
        },
      });
    },
    {
      name: options.name,
      description:
        "Take a screenshot of a web page rendered in a real browser (JavaScript runs) and save it to /mnt/user-data/outputs, presented to the user. Use it for visual evidence, dashboards and JavaScript-heavy pages; read page text with web_fetch instead. The URL must include http:// or https://.",
      schema: webCaptureInput,
    },
  );
}
