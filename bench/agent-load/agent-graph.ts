/**
 * The graph agent-load measures: the real lead agent (model ↔ tools loop) over the real
 * `@langchain/openai` client pointed at the paced mock model, with three small tools a run calls
 * twice — a shell command (`bash`), then `write_file` + `present_files` in one turn — before the
 * model streams its answer. The same graph runs in Fawn, in the peer and in-process (the ceiling).
 */
import { execFile } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { tool } from "@langchain/core/tools";
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import { ChatOpenAI } from "@langchain/openai";
import { z } from "zod";
import { createLeadAgent } from "../../src/agent/lead-agent/create-lead-agent.js";

const run = promisify(execFile);

/** Where the bench's `write_file` writes (one file per call, under the OS temp folder). */
const OUTPUT_DIR = join(tmpdir(), `fawn-agent-load-${process.pid}`);

const bash = tool(
  async ({ command }) => {
    const { stdout } = await run("/bin/sh", ["-c", command], { timeout: 10_000 });
    return stdout;
  },
  {
    name: "bash",
    description: "Run a shell command and return its output.",
    schema: z.object({ command: z.string() }),
  },
);

const writeFileTool = tool(
  async ({ path, content }) => {
    await mkdir(OUTPUT_DIR, { recursive: true });
    const target = join(OUTPUT_DIR, `${crypto.randomUUID()}-${path.replaceAll("/", "_")}`);
    await writeFile(target, content);
    return `wrote ${content.length} characters to ${path}`;
  },
  {
    name: "write_file",
    description: "Write a file.",
    schema: z.object({ path: z.string(), content: z.string() }),
  },
);

const presentFiles = tool(async ({ filepaths }) => `presented ${filepaths.join(", ")}`, {
  name: "present_files",
  description: "Show files to the user.",
  schema: z.object({ filepaths: z.array(z.string()) }),
});

/** `baseUrl` ends in `/v1`. Without a checkpointer when the host attaches its own (the peer). */
export function buildAgentLoadGraph(baseUrl: string, checkpointer?: BaseCheckpointSaver) {
  const model = new ChatOpenAI({
    model: "gpt-mock",
    apiKey: "any-string",
    configuration: { baseURL: baseUrl },
    streaming: true,
    maxRetries: 0,
  });
  return createLeadAgent({
    model,
    tools: [bash, writeFileTool, presentFiles],
    systemPrompt: "You are a benchmark agent.",
    ...(checkpointer ? { checkpointer } : {}),
  });
}

/** The environment variable the peer's graph module reads the mock's URL from. */
/** The id the workers subject serves the graph under (`graphs:`; `lead_agent` is the lead agent's). */
export const WORKERS_GRAPH_ID = "agent";

export const MOCK_URL_ENV = "FAWN_AGENT_LOAD_MOCK_URL";
