import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { HumanMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph-checkpoint";
import { pino } from "pino";
import { stringify } from "yaml";
import { createLeadAgentFactory } from "../../../src/agent/lead-agent/lead-agent-factory.js";
import { type CreateFawnSettings, createFawn, type Fawn } from "../../../src/app/create-fawn.js";
import { parseConfig } from "../../../src/core/config/load-config.js";
import type { Logger } from "../../../src/core/logger.js";
import { createMemoryStores } from "../../../src/stores/memory/stores.js";
import { within } from "../../helpers/latch.js";

function writeFileCall(path: string, content: string) {
  return {
    name: "write_file",
    args: { description: "notes", path: `/mnt/user-data/workspace/${path}`, content },
  };
}

/**
 * The lead agent writes a file and delegates to a sub-agent, which writes one too: a run with
 * model calls, tool calls and a sub-agent, all offline.
 */
const SCRIPT = [
  {
    match: "^Research",
    turns: [
      {
        content: "Writing notes and delegating.",
        tool_calls: [
          writeFileCall("lead.md", "lead notes"),
          {
            name: "task",
            args: {
              description: "dig",
              prompt: "SUB: dig deeper",
              subagent_type: "general-purpose",
            },
          },
        ],
      },
      { content: "All done." },
    ],
  },
  {
    match: "^SUB: dig",
    turns: [
      { content: "Digging.", tool_calls: [writeFileCall("sub.md", "sub notes")] },
      { content: "Dug." },
    ],
  },
];

export interface TracedFawn {
  fawn: Fawn;
  /** Every JSON line the Fawn logged. */
  logLines: string[];
  /** Submits `Research …` on a new thread and waits for the run to end; its ids. */
  runResearch(
    threadId: string,
    options?: {
      userId?: string;
      configurable?: Record<string, unknown>;
      /** The body's `langsmith_tracer.project_name`, as the gateway passes it on. */
      langsmithProject?: string;
    },
  ): Promise<{ runId: string; threadId: string }>;
  /** Closes the Fawn (flushing its exporters) and removes its home. */
  close(): Promise<void>;
}

/** A Fawn over memory stores with the scripted model, tracing settings and a recording logger. */
export async function startTracedFawn(
  tracing: Record<string, unknown>,
  settings: Pick<CreateFawnSettings, "spanProcessors"> = {},
  env: Record<string, string> = {},
): Promise<TracedFawn> {
  const home = await mkdtemp(join(tmpdir(), "fawn-tracing-"));
  await writeFile(join(home, "script.yaml"), stringify(SCRIPT));
  const { config } = parseConfig(
    {
      models: [
        { name: "scripted", use: "scripted", model: "scripted-model", script: "script.yaml" },
      ],
      tracing,
    },
    { env: { FAWN_HOME: home, ...env } },
  );
  const logLines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(...chunk.toString("utf8").split("\n").filter(Boolean));
      done();
    },
  });
  const logger: Logger = pino({ level: "debug" }, sink);
  const checkpointer = new MemorySaver();
  const fawn = await createFawn({
    config,
    stores: createMemoryStores(),
    checkpointer,
    logger,
    agentFactory: createLeadAgentFactory({ config, checkpointer, baseDir: home, logger }),
    runContext: { spawnHousekeeping: () => undefined },
    ...settings,
  });
  return {
    fawn,
    logLines,
    async runResearch(threadId, options = {}) {
      const record = await fawn.runs.submit({
        threadId,
        ...(options.userId ? { userId: options.userId } : {}),
        invocation: {
          input: { messages: [new HumanMessage("Research the topic")] },
          stream_mode: ["values"],
          config: { configurable: { subagent_enabled: true, ...options.configurable } },
          ...(options.langsmithProject ? { langsmith_project: options.langsmithProject } : {}),
        },
      });
      if (record.task) await within(record.task.settled(), 20_000, "run did not finish");
      const row = await fawn.stores.runs.get(record.runId);
      if (row?.status !== "success") throw new Error(`run ended ${row?.status}: ${row?.error}`);
      return { runId: record.runId, threadId };
    },
    async close() {
      await fawn.close();
      await rm(home, { recursive: true, force: true });
    },
  };
}
