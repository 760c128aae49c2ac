import { ToolMessage } from "@langchain/core/messages";
import { type ToolRunnableConfig, tool } from "@langchain/core/tools";
import { Command } from "@langchain/langgraph";
import type { z } from "zod";
import type { Sandbox, SandboxProvider } from "../../../sandbox/index.js";
import { acquireThreadSandbox, type ThreadSandbox } from "./thread-sandbox.js";
import { describeToolFailure } from "./tool-failure.js";

export interface SandboxToolSpec<S extends z.ZodObject> {
  name: string;
  description: string;
  schema: S;
  /** Completes "Unexpected error <doingWhat>: …" for failures nobody anticipated. */
  doingWhat: string;
  /** The tool's work in the thread's sandbox; its text is what the model reads. */
  run(sandbox: Sandbox, input: z.output<S>, config: ToolRunnableConfig): Promise<string>;
  /** Default: `describeToolFailure` with the input's `path`. */
  describeFailure?(error: unknown, input: z.output<S>, sandbox: Sandbox): string;
}

/**
 * A LangChain tool that runs in the calling thread's sandbox. Like the reference's sandbox tools
 * it never throws at the agent loop — failures come back as `Error: …` text — except when the
 * run is being cancelled, which must stop the run. The first call of a thread records the
 * sandbox id in the thread state (a Command alongside the tool's message).
 */
export function defineSandboxTool<S extends z.ZodObject>(
  provider: SandboxProvider,
  spec: SandboxToolSpec<S>,
) {
  return tool(
    async (input: z.output<S>, config: ToolRunnableConfig) => {
      let resolved: ThreadSandbox;
      try {
        resolved = await acquireThreadSandbox(provider, config);
      } catch (error) {
        rethrowIfCancelled(error, config);
        return describeToolFailure(error, { doingWhat: "initializing sandbox" });
      }
      const { sandbox } = resolved;
      let text: string;
      try {
        text = await spec.run(sandbox, input, config);
      } catch (error) {
        rethrowIfCancelled(error, config);
        text = spec.describeFailure
          ? spec.describeFailure(error, input, sandbox)
          : describeToolFailure(error, { doingWhat: spec.doingWhat, path: pathOf(input), sandbox });
      }
      return withSandboxRecord(text, resolved.recordId, spec.name, config);
    },
    { name: spec.name, description: spec.description, schema: spec.schema },
  );
}

function rethrowIfCancelled(error: unknown, config: ToolRunnableConfig): void {
  if (config.signal?.aborted) throw error;
}

function pathOf(input: unknown): string | undefined {
  if (typeof input !== "object" || input === null || !("path" in input)) return undefined;
  return typeof input.path === "string" ? input.path : undefined;
}

/** The tool's text, or a Command that also records the sandbox id in the thread state. */
function withSandboxRecord(
  text: string,
  recordId: string | null,
  name: string,
  config: ToolRunnableConfig,
): string | Command {
  const toolCallId = config.toolCall?.id;
  if (recordId === null || !toolCallId) return text;
  return new Command({
    update: {
      sandbox: { sandbox_id: recordId },
      messages: [new ToolMessage({ content: text, tool_call_id: toolCallId, name })],
    },
  });
}
