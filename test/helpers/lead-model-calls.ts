import { mkdir, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import type { BaseMessage } from "@langchain/core/messages";
import { contentText } from "../../src/agent/middlewares/conversation.js";
import { sandboxConfigSchema } from "../../src/core/config/schema.js";
import { createLogger } from "../../src/core/logger.js";
import { FawnPaths } from "../../src/core/paths.js";
import { createSandboxProvider, type SandboxProvider } from "../../src/sandbox/index.js";

/**
 * Records each lead-agent model call (tagged `lead_agent`): its system prompt and the names of
 * the tools bound to it, in call order. Pass it in a run's `callbacks`.
 */
export class LeadModelCalls extends BaseCallbackHandler {
  name = "lead_model_calls";
  readonly prompts: string[] = [];
  /** Bound tool names per call, sorted. */
  readonly tools: string[][] = [];

  override handleChatModelStart(
    _llm: unknown,
    messages: BaseMessage[][],
    _runId: string,
    _parent?: string,
    extra?: Record<string, unknown>,
    tags?: string[],
  ): void {
    if (!tags?.includes("lead_agent")) return;
    const first = messages[0]?.[0];
    this.prompts.push(first?.getType() === "system" ? contentText(first.content) : "");
    const options = extra?.options as { tools?: Array<{ name?: string }> } | undefined;
    this.tools.push((options?.tools ?? []).map((tool) => String(tool.name)).sort());
  }
}

/** Writes a file, creating its folders. */
export async function putFile(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text);
}

/** The local sandbox provider on a home folder (shut it down after the tests). */
export function localSandboxProvider(home: string): Promise<SandboxProvider> {
  return createSandboxProvider({
    config: sandboxConfigSchema.parse({ use: "local" }),
    paths: new FawnPaths(home),
    skillsDir: null,
    logger: createLogger({ level: "silent" }),
  });
}
