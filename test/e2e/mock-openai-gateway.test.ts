/**
 * The real `@langchain/openai` client against `fawn mock-openai`, through the real gateway: a
 * model `use: openai` whose `base_url` is the mock server, driven with the LangGraph SDK's
 * `runs.stream` in `messages-tuple` + `values` modes. Token chunks arrive as `messages` SSE events,
 * the task (write a file, present it) succeeds, and the run's events carry the journal evidence.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockOpenAIServer, startMockOpenAI } from "../../src/agent/mock-openai/server.js";
import { mockGptModel, type ServedGateway, startServedGateway } from "./helpers/served-gateway.js";

const NOTES = "/mnt/user-data/outputs/notes.md";
const ANSWER = "All done: the notes are written and presented to you as notes.md, enjoy reading.";

const SCRIPT = [
  {
    turns: [
      {
        content: "Writing the notes first.",
        tool_calls: [
          {
            name: "write_file",
            args: { description: "the notes", path: NOTES, content: "# Notes\n\nfrom the mock\n" },
          },
        ],
      },
      { tool_calls: [{ name: "present_files", args: { filepaths: [NOTES] } }] },
      { content: ANSWER },
    ],
  },
];

interface ApiEvent {
  event_type: string;
}

describe("the real ChatOpenAI client against fawn mock-openai, through the gateway", () => {
  let scriptDir = "";
  let mock: MockOpenAIServer;
  let server: ServedGateway;

  beforeAll(async () => {
    scriptDir = await mkdtemp(join(tmpdir(), "fawn-mock-script-"));
    const script = join(scriptDir, "notes.json");
    await writeFile(script, JSON.stringify(SCRIPT));
    mock = await startMockOpenAI({ script });
    server = await startServedGateway({
      config: () => ({
        models: [mockGptModel(mock.url)],
      }),
    });
  });

  afterAll(async () => {
    await server?.close();
    await mock?.close();
    await rm(scriptDir, { recursive: true, force: true });
  });

  it("streams token chunks as messages events; the run succeeds with its journal evidence", async () => {
    const client = server.client();
    const thread = await client.threads.create();
    const seen: string[] = [];
    let streamedText = "";
    let runId = "";
    for await (const part of client.runs.stream(thread.thread_id, "lead_agent", {
      input: { messages: [{ role: "user", content: "Write me some notes" }] },
      config: { configurable: { model_name: "mock-gpt" } },
      streamMode: ["messages-tuple", "values"],
    })) {
      seen.push(part.event);
      if (part.event === "metadata") runId = String((part.data as { run_id: string }).run_id);
      if (part.event === "messages") {
        const [chunk] = part.data as [{ type?: string; content?: unknown }, unknown];
        if (typeof chunk.content === "string") streamedText += chunk.content;
      }
    }
    const tokenChunks = seen.filter((event) => event === "messages");
    // The answer streams in several chunks, not as one message.
    expect(tokenChunks.length).toBeGreaterThan(3);
    expect(streamedText).toContain(ANSWER);
    expect(seen).toContain("values");
    expect(seen).not.toContain("error");

    expect(runId).not.toBe("");
    const run = await client.runs.get(thread.thread_id, runId);
    expect(run.status).toBe("success");
    const state = await client.threads.getState<{ artifacts: string[] }>(thread.thread_id);
    expect(state.values.artifacts).toEqual([NOTES]);

    const response = await fetch(
      `${server.apiUrl}/threads/${thread.thread_id}/runs/${runId}/events`,
    );
    expect(response.status).toBe(200);
    const types = ((await response.json()) as ApiEvent[]).map((event) => event.event_type);
    expect(types).toContain("llm.ai.response");
    expect(types).toContain("llm.tool.result");
    expect(types.filter((type) => type === "run.terminal")).toHaveLength(1);

    const notes = await fetch(
      `${server.apiUrl}/threads/${thread.thread_id}/artifacts/mnt/user-data/outputs/notes.md`,
    );
    expect(await notes.text()).toBe("# Notes\n\nfrom the mock\n");
  }, 60_000);
});
