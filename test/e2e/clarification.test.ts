/**
 * Clarification round trip through the gateway with the LangGraph SDK and the real
 * `@langchain/openai` client against `fawn mock-openai` (a recording proxy in between shows what
 * the model was sent). The model asks with `ask_clarification`: the run ends `success` with the
 * question in the thread state (a ToolMessage carrying `artifact.human_input`) and the thread
 * idle. The next run on the thread carries the answer (with `human_input_response`); the model's
 * next call sees its earlier tool call, the clarification and the answer, and the task goes on:
 * a file is written, presented and downloads.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockOpenAIServer, startMockOpenAI } from "../../src/agent/mock-openai/server.js";
import {
  type RecordingOpenAIProxy,
  startRecordingProxy,
  type WireMessage,
} from "./helpers/recording-openai-proxy.js";
import { mockGptModel, type ServedGateway, startServedGateway } from "./helpers/served-gateway.js";

const QUESTION = "Which city should the weekend plan cover?";
const PLAN = "/mnt/user-data/outputs/lisbon-plan.md";
const PLAN_TEXT = "# Lisbon weekend\n\n- Saturday: Alfama and the castle\n- Sunday: Belém\n";
const ANSWER = "The Lisbon weekend plan is ready: lisbon-plan.md.";

const SCRIPT = [
  {
    match: "plan a weekend trip",
    turns: [
      {
        content: "Before planning, one question.",
        tool_calls: [
          {
            name: "ask_clarification",
            args: {
              question: QUESTION,
              clarification_type: "missing_info",
              options: ["Lisbon", "Kyoto"],
            },
          },
        ],
      },
    ],
  },
  {
    match: "lisbon",
    turns: [
      {
        tool_calls: [
          {
            name: "write_file",
            args: { description: "the plan", path: PLAN, content: PLAN_TEXT },
          },
        ],
      },
      { tool_calls: [{ name: "present_files", args: { filepaths: [PLAN] } }] },
      { content: ANSWER },
    ],
  },
];

interface StateMessage {
  type: string;
  name?: string;
  content: unknown;
  tool_call_id?: string;
  tool_calls?: Array<{ name: string; id?: string }>;
  artifact?: { human_input?: Record<string, unknown> };
  additional_kwargs?: Record<string, unknown>;
}

interface TripState {
  messages: StateMessage[];
  artifacts: string[];
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part: { text?: unknown }) => (typeof part.text === "string" ? part.text : ""))
    .join("");
}

describe("clarification round trip through the gateway (real ChatOpenAI, mock OpenAI)", () => {
  let scriptDir = "";
  let mock: MockOpenAIServer;
  let proxy: RecordingOpenAIProxy;
  let server: ServedGateway;

  beforeAll(async () => {
    scriptDir = await mkdtemp(join(tmpdir(), "fawn-clarify-script-"));
    const script = join(scriptDir, "clarify.json");
    await writeFile(script, JSON.stringify(SCRIPT));
    mock = await startMockOpenAI({ script });
    proxy = await startRecordingProxy(mock.url);
    server = await startServedGateway({
      config: () => ({
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

  it("ends the run with the question, then continues the task with the user's answer", async () => {
    const client = server.client();
    const thread = await client.threads.create();
    const config = { configurable: { model_name: "mock-gpt" } };

    // Run 1: the model asks.
    const first = await client.runs.create(thread.thread_id, "lead_agent", {
      input: { messages: [{ role: "user", content: "Please plan a weekend trip for me" }] },
      config,
    });
    await client.runs.join(thread.thread_id, first.run_id);
    expect((await client.runs.get(thread.thread_id, first.run_id)).status).toBe("success");
    expect((await client.threads.get(thread.thread_id)).status).toBe("idle");

    const asked = await client.threads.getState<TripState>(thread.thread_id);
    const clarification = asked.values.messages.at(-1);
    expect(clarification?.type).toBe("tool");
    expect(clarification?.name).toBe("ask_clarification");
    expect(textOf(clarification?.content)).toContain(QUESTION);
    const request = clarification?.artifact?.human_input;
    expect(request).toMatchObject({
      kind: "human_input_request",
      source: "ask_clarification",
      question: QUESTION,
      input_mode: "choice_with_other",
      options: [
        { id: "option_1", label: "Lisbon", value: "Lisbon" },
        { id: "option_2", label: "Kyoto", value: "Kyoto" },
      ],
    });
    const askingCall = asked.values.messages.at(-2)?.tool_calls?.[0];
    expect(askingCall?.name).toBe("ask_clarification");
    expect(clarification?.tool_call_id).toBe(askingCall?.id);
    expect(asked.values.artifacts ?? []).toEqual([]);
    const leadCallsBefore = proxy.leadRequests().length;
    expect(leadCallsBefore).toBe(1);

    // Run 2: the answer, as a client's clarification card sends it.
    const second = await client.runs.create(thread.thread_id, "lead_agent", {
      input: {
        messages: [
          {
            role: "user",
            content: "Lisbon",
            additional_kwargs: {
              hide_from_ui: true,
              human_input_response: {
                version: 1,
                kind: "human_input_response",
                source: "ask_clarification",
                request_id: request?.request_id,
                response_kind: "option",
                option_id: "option_1",
                value: "Lisbon",
              },
            },
          },
        ],
      },
      config,
    });
    await client.runs.join(thread.thread_id, second.run_id);
    expect((await client.runs.get(thread.thread_id, second.run_id)).status).toBe("success");

    // The model's first call of run 2 saw its tool call, the clarification and the answer.
    const seen = proxy.leadRequests()[leadCallsBefore]?.messages ?? [];
    const roles = seen.map((message) => message.role).filter((role) => role !== "system");
    expect(roles).toEqual(["user", "assistant", "tool", "user"]);
    const [task, call, toolResult, answer] = seen.filter((m) => m.role !== "system") as [
      WireMessage,
      WireMessage,
      WireMessage,
      WireMessage,
    ];
    expect(textOf(task.content)).toBe("Please plan a weekend trip for me");
    expect(call.tool_calls?.[0]?.function?.name).toBe("ask_clarification");
    expect(toolResult.tool_call_id).toBe(call.tool_calls?.[0]?.id);
    expect(textOf(toolResult.content)).toContain(QUESTION);
    expect(textOf(answer.content)).toBe("Lisbon");

    const done = await client.threads.getState<TripState>(thread.thread_id);
    expect(done.values.artifacts).toEqual([PLAN]);
    expect(textOf(done.values.messages.at(-1)?.content)).toBe(ANSWER);
    const kept = done.values.messages.find(
      (message) => message.type === "human" && textOf(message.content) === "Lisbon",
    );
    expect(kept?.additional_kwargs?.human_input_response).toMatchObject({
      request_id: request?.request_id,
      value: "Lisbon",
    });
    const plan = await fetch(
      `${server.apiUrl}/threads/${thread.thread_id}/artifacts/mnt/user-data/outputs/lisbon-plan.md`,
    );
    expect(await plan.text()).toBe(PLAN_TEXT);
  }, 60_000);
});
