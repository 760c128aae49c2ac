/**
 * The lead agent (the real ChatOpenAI client against `fawn mock-openai`) streams every mode too:
 * `events` and `messages` come from the worker's callback handler, so the agent needs no
 * interface of its own, and none of its payloads carries the run's journal, which the lead agent
 * hands its middlewares in `configurable`.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type MockOpenAIServer, startMockOpenAI } from "../../src/agent/mock-openai/server.js";
import {
  mockGptModel,
  type ServedGateway,
  startServedGateway,
} from "../e2e/helpers/served-gateway.js";
import { collect } from "./helpers/stream-gateway.js";

const ANSWER = "Hello from the lead agent, streamed token by token.";

let scriptDir = "";
let mock: MockOpenAIServer;
let server: ServedGateway;

beforeAll(async () => {
  scriptDir = await mkdtemp(join(tmpdir(), "fawn-stream-script-"));
  const script = join(scriptDir, "hello.json");
  await writeFile(script, JSON.stringify([{ turns: [{ content: ANSWER }] }]));
  mock = await startMockOpenAI({ script });
  server = await startServedGateway({ config: () => ({ models: [mockGptModel(mock.url)] }) });
});
afterAll(async () => {
  await server?.close();
  await mock?.close();
  await rm(scriptDir, { recursive: true, force: true });
});

it("streams messages, events, debug and the rest, without internals", async () => {
  const client = server.client();
  const thread = await client.threads.create();
  const parts = await collect(
    client.runs.stream(thread.thread_id, "lead_agent", {
      input: { messages: [{ role: "user", content: "Say hello" }] },
      config: { configurable: { model_name: "mock-gpt" } },
      streamMode: ["messages", "events", "debug", "messages-tuple", "values", "updates"],
    }),
  );
  const names = new Set(parts.map((p) => p.event));
  for (const name of [
    "metadata",
    "messages/metadata",
    "messages/partial",
    "messages/complete",
    "events",
    "debug",
    "messages",
    "values",
    "updates",
  ]) {
    expect(names).toContain(name);
  }
  expect(names).not.toContain("error");
  const partial = parts
    .filter((p) => p.event === "messages/partial")
    .map((p) => (p.data as Array<{ content: string }>)[0]?.content);
  expect(partial.length).toBeGreaterThan(3);
  expect(partial.at(-1)).toBe(ANSWER);
  const events = new Set(
    parts.filter((p) => p.event === "events").map((p) => (p.data as { event: string }).event),
  );
  expect(events).toContain("on_chat_model_stream");
  const text = JSON.stringify(parts);
  expect(text).not.toContain("__fawn");
  expect(text).not.toMatch(/"__pregel[^"]*":/);
  expect(text).not.toContain('"callbacks"');
  const [run] = await client.runs.list(thread.thread_id);
  expect(run?.status).toBe("success");
}, 60_000);
