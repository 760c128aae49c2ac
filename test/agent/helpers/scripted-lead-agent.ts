import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type BaseMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph-checkpoint";
import { createLeadAgentFactory } from "../../../src/agent/lead-agent/lead-agent-factory.js";
import { createFawn, type Fawn } from "../../../src/app/create-fawn.js";
import { parseConfig } from "../../../src/core/config/load-config.js";
import { createMemoryStores } from "../../../src/stores/memory/stores.js";
import { withBlockingIoGate } from "../../helpers/blocking-io-gate.js";
import { within } from "../../helpers/latch.js";

export interface ScriptedLeadAgent {
  fawn: Fawn;
  checkpointer: MemorySaver;
}

/**
 * A Fawn on memory stores whose lead agent runs one scripted model (`script` written to
 * `<home>/script.json`) with the given `tools:` entries: the real runtime, worker and journal.
 */
export async function startScriptedLeadAgent(options: {
  home: string;
  script: unknown[];
  tools?: Record<string, unknown>[];
  /** The factory's environment (e.g. an MCP stdio allowlist). */
  env?: Record<string, string>;
}): Promise<ScriptedLeadAgent> {
  await writeFile(join(options.home, "script.json"), JSON.stringify(options.script));
  const { config } = parseConfig(
    {
      models: [{ name: "scripted", use: "scripted", model: "s", script: "script.json" }],
      ...(options.tools ? { tools: options.tools } : {}),
    },
    { env: { FAWN_HOME: options.home } },
  );
  const checkpointer = new MemorySaver();
  const fawn = await createFawn({
    config,
    stores: createMemoryStores(),
    checkpointer,
    agentFactory: createLeadAgentFactory({
      config,
      checkpointer,
      baseDir: options.home,
      env: options.env ?? {},
    }),
    runContext: { spawnHousekeeping: () => undefined },
  });
  return { fawn, checkpointer };
}

export interface FinishedRun {
  runId: string;
  threadId: string;
  status: string | undefined;
  error: unknown;
  messages: BaseMessage[];
  toolResults: ToolMessage[];
  values: Record<string, unknown>;
}

/**
 * Sends `text` on `threadId` and waits for the run to settle, under the blocking-IO gate (a sync
 * call anywhere in the tools fails the run); returns the run's row and the thread's saved state.
 */
export async function runToEnd(
  agent: ScriptedLeadAgent,
  threadId: string,
  text: string,
  options: { timeoutMs?: number; configurable?: Record<string, unknown> } = {},
): Promise<FinishedRun> {
  const timeoutMs = options.timeoutMs ?? 15_000;
  const { fawn, checkpointer } = agent;
  const record = await withBlockingIoGate(async () => {
    const submitted = await fawn.runs.submit({
      threadId,
      invocation: {
        input: { messages: [new HumanMessage(text)] },
        ...(options.configurable ? { config: { configurable: options.configurable } } : {}),
      },
    });
    await within(
      submitted.task ? submitted.task.settled().then(() => undefined) : Promise.resolve(),
      timeoutMs,
      `the run on ${threadId} did not finish`,
    );
    return submitted;
  });
  const row = await fawn.stores.runs.get(record.runId);
  const saved = await checkpointer.getTuple({ configurable: { thread_id: threadId } });
  const values = (saved?.checkpoint.channel_values ?? {}) as Record<string, unknown>;
  const messages = (values.messages ?? []) as BaseMessage[];
  return {
    runId: record.runId,
    threadId: record.threadId,
    status: row?.status,
    error: row?.error ?? null,
    messages,
    toolResults: messages.filter((message) => ToolMessage.isInstance(message)),
    values,
  };
}
