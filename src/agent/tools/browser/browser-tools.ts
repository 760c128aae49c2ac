import { ToolMessage } from "@langchain/core/messages";
import { type StructuredToolInterface, tool } from "@langchain/core/tools";
import { Command } from "@langchain/langgraph";
import { z } from "zod";
import type { Logger } from "../../../core/logger.js";
import type { FawnPaths } from "../../../core/paths.js";
import { threadScopeOf } from "../thread-scope.js";
import { captureFileName, writeCapture } from "../web/capture/capture-output.js";
import { checkFetchTarget } from "../web/url-guard.js";
import { describeWebToolFailure, WebToolError } from "../web/web-tool-error.js";
import type { BrowserSession } from "./browser-session.js";
import type { BrowserSessionPool } from "./browser-session-pool.js";
import { type PageSnapshot, renderSnapshot } from "./page-snapshot.js";

export const BROWSER_ACTIONS = [
  "navigate",
  "snapshot",
  "click",
  "type",
  "get_text",
  "back",
  "screenshot",
  "close",
] as const;
export type BrowserAction = (typeof BROWSER_ACTIONS)[number];

/** The reference's browser tools; the navigate entry carries the launch options of all. */
export const BROWSER_USE_PREFIX = "deerflow.community.browser_automation.tools:";
export const BROWSER_LAUNCH_USE = `${BROWSER_USE_PREFIX}browser_navigate_tool`;

export interface BrowserToolOptions {
  name: string;
  pool: BrowserSessionPool;
  /** browser_get_text's cap on the text it returns. */
  maxChars: number;
  /** Thread folders, for browser_screenshot; absent when the tools are only validated. */
  paths: FawnPaths | undefined;
  logger: Logger;
}

const NO_PAGE =
  "Error: no page is open in this conversation's browser; call browser_navigate first.";
const ref = z
  .number()
  .int()
  .min(1)
  .max(10_000)
  .describe("The element's [ref] number from the latest snapshot.");

const DESCRIPTIONS: Record<BrowserAction, string> = {
  navigate:
    "Open a URL in this conversation's live browser and list the page's interactive elements as [ref] role: name, with an excerpt of its text. Use it to start a browsing flow; then act with browser_click and browser_type on those [ref] numbers. The page stays open across turns. Give the full URL with its scheme (https://...).",
  snapshot:
    "Re-read the current page's interactive elements and text without acting, e.g. after content loaded by itself or when unsure of the page's state.",
  click:
    "Click an element by its [ref] number from the latest snapshot; returns the page's new snapshot (with new [ref] numbers).",
  type: "Type text into an input or textarea by its [ref] number; set submit to press Enter afterwards (run a search, send a form). Returns the new snapshot.",
  get_text:
    "Read the visible text of the current page, e.g. to quote or summarise it. Long pages are cut.",
  back: "Go back to the previous page of this conversation's browser history.",
  screenshot:
    "Save a screenshot of the current page in the conversation's outputs, as an artifact for the user.",
  close: "Close this conversation's browser and free it; a later browser_navigate starts afresh.",
};

const SCHEMAS = {
  navigate: z.object({
    url: z.string().trim().min(1).max(4000).describe("The http(s) URL to open."),
  }),
  snapshot: z.object({}),
  click: z.object({ ref }),
  type: z.object({
    ref,
    text: z.string().max(20_000).describe("The text to enter (replaces the field's value)."),
    submit: z.boolean().optional().describe("Press Enter after typing."),
  }),
  get_text: z.object({}),
  back: z.object({}),
  screenshot: z.object({
    filename: z.string().max(200).optional().describe("Optional file name (saved as .png)."),
    full_page: z.boolean().optional().describe("Capture the whole page, not only the viewport."),
  }),
  close: z.object({}),
} satisfies Record<BrowserAction, z.ZodObject>;

type Input = {
  url?: string;
  ref?: number;
  text?: string;
  submit?: boolean;
  filename?: string;
  full_page?: boolean;
};

/** One of the browser tools; failures come back as `Error: ...` text, never as a throw. */
export function createBrowserTool(
  action: BrowserAction,
  options: BrowserToolOptions,
): StructuredToolInterface {
  return tool(
    async (input: Input, config) => {
      const scope = threadScopeOf(config);
      const key = `${scope.userId}/${scope.threadId}`;
      try {
        if (action === "close") {
          return (await options.pool.closeSession(key))
            ? "Browser session closed."
            : "No browser session was open.";
        }
        if (action === "screenshot")
          return await screenshot(input, key, scope, options, config?.toolCall?.id);
        const open = action === "navigate";
        if (open)
          await checkFetchTarget(
            input.url ?? "",
            options.pool.settings.allowPrivateNetwork
              ? { allowPrivateNetwork: true }
              : { allowPrivateNetwork: false, ...options.pool.seams },
          ).catch(browseWording);
        const result = await options.pool.use(key, open, (session) =>
          act(action, input, session, options),
        );
        return result ?? NO_PAGE;
      } catch (error) {
        const message = describeWebToolFailure(firstLine(error), options.name, []);
        options.logger.warn({ tool: options.name }, message);
        return message;
      }
    },
    { name: options.name, description: DESCRIPTIONS[action], schema: SCHEMAS[action] },
  );
}

async function act(
  action: Exclude<BrowserAction, "close" | "screenshot">,
  input: Input,
  session: BrowserSession,
  options: BrowserToolOptions,
): Promise<string> {
  const ref = input.ref ?? 0;
  switch (action) {
    case "navigate":
      return reply(
        session,
        `Navigated to ${input.url ?? ""}.`,
        await session.navigate(input.url ?? ""),
      );
    case "snapshot":
      return reply(session, "", await session.snapshot());
    case "click":
      return reply(session, `Clicked element [${ref}].`, await session.click(ref));
    case "type": {
      const snapshot = await session.type(ref, input.text ?? "", input.submit === true);
      const done = input.submit
        ? `Typed into element [${ref}] and submitted.`
        : `Typed into element [${ref}].`;
      return reply(session, done, snapshot);
    }
    case "back": {
      const snapshot = await session.back();
      if (!snapshot)
        return "Error: there is no earlier page in this conversation's browser history.";
      return reply(session, "Went back.", snapshot);
    }
    case "get_text": {
      const text = (await session.text()).replace(/\n{3,}/g, "\n\n").trim();
      if (!text) return "(page has no visible text)";
      if (text.length <= options.maxChars) return text;
      return `${text.slice(0, options.maxChars)}\n\n[cut: ${text.length - options.maxChars} more characters]`;
    }
  }
}

/** The action line, any refusal of the private-address guard, then the snapshot. */
function reply(session: BrowserSession, done: string, snapshot: PageSnapshot): string {
  const refused = session.takeRefusals().map((line) => `Blocked: ${line}`);
  return [[done, ...refused].filter(Boolean).join("\n"), renderSnapshot(snapshot)]
    .filter(Boolean)
    .join("\n\n");
}

async function screenshot(
  input: Input,
  key: string,
  scope: ReturnType<typeof threadScopeOf>,
  options: BrowserToolOptions,
  toolCallId: string | undefined,
): Promise<string | Command> {
  const { paths } = options;
  if (!paths) return "Error: browser_screenshot has no thread folders to save into here.";
  const shot = await options.pool.use(key, false, async (session) => ({
    image: await session.screenshot(input.full_page === true),
    url: session.currentUrl,
  }));
  if (!shot) return NO_PAGE;
  const name = captureFileName(input.filename, safeUrl(shot.url), "png");
  const artifact = await writeCapture(paths, scope, name, shot.image);
  const message = `Saved browser screenshot: ${artifact}`;
  if (!toolCallId) return message;
  return new Command({
    update: {
      artifacts: [artifact],
      messages: [
        new ToolMessage({ content: message, tool_call_id: toolCallId, name: options.name }),
      ],
    },
  });
}

function safeUrl(url: string): URL {
  try {
    return new URL(url);
  } catch {
    return new URL("about:blank");
  }
}

/** Playwright's errors carry a multi-line call log; the model needs its first line. */
function firstLine(error: unknown): unknown {
  if (!(error instanceof Error) || error instanceof WebToolError) return error;
  const brief = new Error(error.message.split("\n")[0]);
  brief.name = error.name;
  return brief;
}

/** The guard speaks of fetching; here the model is browsing. */
function browseWording(error: unknown): never {
  if (error instanceof WebToolError) {
    throw new WebToolError(error.message.replace(/^Refusing to fetch/, "Refusing to browse"));
  }
  throw error;
}
