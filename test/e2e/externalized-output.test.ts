/**
 * A tool output over the budget, end to end through the gateway with the LangGraph SDK and the
 * real `@langchain/openai` client against `fawn mock-openai` (a recording proxy shows exactly what
 * the model was sent): a bash step prints more than `tool_output.externalize_min_chars`; the
 * model's next request holds the synopsis naming the saved file under
 * `/mnt/user-data/outputs/.tool-results/`, not the output; the model then reads that file back
 * with `read_file` and gets the real lines, including ones from the middle the synopsis left out.
 */
import { createHash } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockOpenAIServer, startMockOpenAI } from "../../src/agent/mock-openai/server.js";
import { DEFAULT_USER_ID, FawnPaths } from "../../src/core/paths.js";
import { fileSystemOutputsScanner } from "../../src/runtime/worker/produced-outputs.js";
import {
  type RecordingOpenAIProxy,
  startRecordingProxy,
  type WireMessage,
} from "./helpers/recording-openai-proxy.js";
import { mockGptModel, type ServedGateway, startServedGateway } from "./helpers/served-gateway.js";

const ROWS = 400;
const COMMAND = `for i in $(seq 1 ${ROWS}); do echo "row $i: value $((i * 7))"; done`;
/** What the command prints, so the content-addressed file name is known before the run. */
const OUTPUT = Array.from({ length: ROWS }, (_, i) => `row ${i + 1}: value ${(i + 1) * 7}\n`).join(
  "",
);
const MIDDLE_LINE = "row 200: value 1400";
const BUDGET = 2000;
const SAVED = `/mnt/user-data/outputs/.tool-results/bash-${createHash("sha256")
  .update(OUTPUT, "utf8")
  .digest("hex")
  .slice(0, 24)}.log`;
const SUMMARY = "/mnt/user-data/outputs/summary.md";
const ANSWER = "Row 200 has value 1400; the summary is in summary.md.";

const SCRIPT = [
  {
    turns: [
      { tool_calls: [{ name: "bash", args: { description: "list the rows", command: COMMAND } }] },
      {
        tool_calls: [
          {
            name: "read_file",
            args: { description: "the middle rows", path: SAVED, start_line: 198, end_line: 202 },
          },
        ],
      },
      {
        tool_calls: [
          {
            name: "write_file",
            args: { description: "summary", path: SUMMARY, content: `${MIDDLE_LINE}\n` },
          },
        ],
      },
      { tool_calls: [{ name: "present_files", args: { filepaths: [SUMMARY] } }] },
      { content: ANSWER },
    ],
  },
];

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part: { text?: unknown }) => (typeof part.text === "string" ? part.text : ""))
    .join("");
}

/** The last tool message the model was sent in a request. */
function lastToolResult(messages: WireMessage[]): string {
  const tool = messages.filter((message) => message.role === "tool").at(-1);
  return textOf(tool?.content);
}

describe("an externalized tool output read back, through the gateway", () => {
  let scriptDir = "";
  let mock: MockOpenAIServer;
  let proxy: RecordingOpenAIProxy;
  let server: ServedGateway;

  beforeAll(async () => {
    scriptDir = await mkdtemp(join(tmpdir(), "fawn-externalize-script-"));
    const script = join(scriptDir, "externalize.json");
    await writeFile(script, JSON.stringify(SCRIPT));
    mock = await startMockOpenAI({ script });
    proxy = await startRecordingProxy(mock.url);
    server = await startServedGateway({
      config: () => ({
        // Host bash in the local sandbox: the output, not isolation, is under test here.
        sandbox: { use: "local", allow_host_bash: true },
        tool_output: { externalize_min_chars: BUDGET },
        models: [mockGptModel(proxy.url)],
      }),
    });
  });

  afterAll(async () => {
    await server?.close();
    await proxy?.close();
    await mock?.close();
    await rm(scriptDir, { recursive: true, force: true });
  });

  it("the model sees the synopsis, not the output, and reads the saved file back", async () => {
    expect(OUTPUT.length).toBeGreaterThan(BUDGET * 3);
    const client = server.client();
    const thread = await client.threads.create();
    const run = await client.runs.create(thread.thread_id, "lead_agent", {
      input: { messages: [{ role: "user", content: "What is the value of row 200?" }] },
      config: { configurable: { model_name: "mock-gpt" } },
    });
    await client.runs.join(thread.thread_id, run.run_id);
    expect((await client.runs.get(thread.thread_id, run.run_id)).status).toBe("success");

    const calls = proxy.leadRequests();
    expect(calls).toHaveLength(5);
    // Call 2 follows the bash step: a synopsis pointing at the saved file, not the rows.
    const synopsis = lastToolResult(calls[1]?.messages ?? []);
    expect(synopsis).toContain(`[Full bash output saved to ${SAVED} (${OUTPUT.length} chars`);
    expect(synopsis).toContain(`Use read_file on ${SAVED}`);
    expect(synopsis).toContain("row 1: value 7");
    expect(synopsis).not.toContain(MIDDLE_LINE);
    expect(synopsis.length).toBeLessThan(OUTPUT.length / 2);
    // No request ever carried the rows the synopsis left out.
    const everythingSent = calls
      .flatMap((call) => call.messages.map((message) => textOf(message.content)))
      .join("\n");
    expect(everythingSent).not.toContain(OUTPUT.slice(2500, 3500));

    // Call 3 follows read_file: the real lines from the middle, read from the saved file.
    const readBack = lastToolResult(calls[2]?.messages ?? []);
    expect(readBack).toContain(MIDDLE_LINE);
    expect(readBack).toContain("row 198: value 1386");
    expect(readBack).toContain("row 202: value 1414");
    expect(readBack).not.toContain("row 203:");

    // The saved file holds the whole output, in the thread's outputs folder on the host.
    const outputsDir = new FawnPaths(server.home).threadPaths({
      userId: DEFAULT_USER_ID,
      threadId: thread.thread_id,
    }).outputsDir;
    const saved = await readFile(join(outputsDir, SAVED.slice("/mnt/user-data/outputs/".length)));
    expect(saved.toString("utf8")).toBe(OUTPUT);

    const state = await client.threads.getState<{ artifacts: string[] }>(thread.thread_id);
    expect(state.values.artifacts).toEqual([SUMMARY]);
    // Delivery verification counts the summary, not the saved output (process feedback).
    expect(await fileSystemOutputsScanner.produced(outputsDir, new Map())).toEqual([SUMMARY]);
  }, 60_000);
});
